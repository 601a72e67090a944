"use client";
import { useTranslations } from "next-intl";
import { useState, useTransition } from "react";

import type { Attempt } from "@/lib/actions/result";

const known = ["reauthentication_required", "last_owner", "email_taken"] as const;

/**
 * One team change at a time from a control: pending while it runs, then the refusal in the reader's
 * words (or the success line), announced by the control's status region.
 */
export function useTeamChange() {
  const t = useTranslations("team");
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);
  const [pending, start] = useTransition();
  const run = <T,>(change: () => Promise<Attempt<T>>, success: (value: T) => string) =>
    start(async () => {
      const done = await change();
      if (done.ok) return setMessage({ ok: true, text: success(done.value) });
      const code = (known as readonly string[]).includes(done.code) ? done.code : null;
      const text = code
        ? t(`errors.${code}`)
        : done.param === "email"
          ? t("errors.email")
          : done.param === "support_refund_limit"
            ? t("errors.amount")
            : t("errors.generic", { message: done.message });
      setMessage({ ok: false, text });
    });
  return { message, pending, run };
}

/** The status line under a control: polite for a success, an alert for a refusal. */
export function ChangeMessage({ message, id }: { message: { ok: boolean; text: string } | null; id?: string }) {
  if (!message) return <p id={id} role="status" className="sr-only" />;
  return message.ok ? (
    <p id={id} role="status" className="mt-1 text-sm text-ink">
      {message.text}
    </p>
  ) : (
    <p id={id} role="alert" className="mt-1 text-sm text-danger">
      {message.text}
    </p>
  );
}
