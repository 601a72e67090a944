"use client";
import { useTranslations } from "next-intl";
import { useState, useTransition } from "react";

import { primaryButtonClass } from "@/components/ui/button";

/**
 * The step-up before a bank account or contact change (the session is older than 15 minutes): one
 * button that e-mails a fresh single-use sign-in link to the contact address, and says it was sent.
 */
export function StepUp({ email, action }: { email: string; action: () => Promise<{ sent: boolean }> }) {
  const t = useTranslations("merchantHome");
  const [sent, setSent] = useState(false);
  const [pending, start] = useTransition();
  return (
    <div className="mt-3 rounded-lg border-2 border-primary p-3" data-testid="step-up">
      <h3 className="font-semibold">{t("stepUpTitle")}</h3>
      <p className="mt-1">{t("stepUpIntro", { email })}</p>
      {sent ? (
        <p role="status" className="mt-2 font-medium">
          {t("stepUpSent")}
        </p>
      ) : (
        <button
          type="button"
          disabled={pending}
          onClick={() => start(async () => setSent((await action()).sent))}
          className={primaryButtonClass("md", "mt-2")}
        >
          {t("stepUpAction")}
        </button>
      )}
    </div>
  );
}
