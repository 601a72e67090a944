"use client";
import { useRouter } from "next/navigation";
import { useTranslations } from "next-intl";
import { useState, useTransition } from "react";

import type { Attempt } from "@/lib/actions/result";

export type NewSecret = { secret: string; sid: string };

/** A key change from a control: pending, then the refusal in words, or the new secret shown once. */
export function useKeyChange() {
  const t = useTranslations("apiKeys");
  const router = useRouter();
  const [error, setError] = useState<string | null>(null);
  const [pending, start] = useTransition();
  const run = <T,>(change: () => Promise<Attempt<T>>, done: (value: T) => void) =>
    start(async () => {
      const answer = await change();
      if (!answer.ok) {
        setError(
          answer.code === "reauthentication_required"
            ? t("errors.reauthentication_required")
            : t("errors.generic", { message: answer.message }),
        );
        return;
      }
      setError(null);
      done(answer.value);
      router.refresh();
    });
  return { error, pending, run };
}

/** The secret of a key just made or rolled: shown once, with how to use it. */
export function SecretOnce({ made }: { made: NewSecret | null }) {
  const t = useTranslations("apiKeys");
  if (!made) return null;
  return (
    <div role="status" className="mt-3 break-all rounded-lg border border-line bg-surface p-3">
      <p>
        {t("newSecret")} <code data-testid="new-key-secret">{made.secret}</code>
      </p>
      <p className="mt-1 text-sm text-muted">{t("basicAuth", { sid: made.sid })}</p>
    </div>
  );
}
