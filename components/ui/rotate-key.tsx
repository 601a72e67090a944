"use client";
import { useTranslations } from "next-intl";
import { useState, useTransition } from "react";

/**
 * Replace an account's secret key (the ISV's in the dashboard, the merchant's own in its home): the
 * old one stops working at once; the new one is shown here once and never again.
 */
export function RotateKey({
  action,
  accountSid,
}: {
  /** The new secret, or why it was refused (shown as it is: the server's words). */
  action: () => Promise<string | { error: string }>;
  accountSid?: string;
}) {
  const t = useTranslations("dashboard");
  const [secret, setSecret] = useState<string | null>(null);
  const [refused, setRefused] = useState<string | null>(null);
  const [pending, start] = useTransition();
  return (
    <div className="mt-2">
      <p className="text-sm text-muted">{t("rotateConfirm")}</p>
      <button
        type="button"
        disabled={pending}
        onClick={() =>
          start(async () => {
            const answer = await action();
            setSecret(typeof answer === "string" ? answer : null);
            setRefused(typeof answer === "string" ? null : answer.error);
          })
        }
        className="mt-2 rounded-lg border border-danger px-4 py-2 font-medium text-danger"
      >
        {t("rotate")}
      </button>
      {refused ? (
        <p role="alert" className="mt-2 text-danger">
          {refused}
        </p>
      ) : null}
      {secret ? (
        <div role="status" className="mt-2 break-all">
          <p>
            {t("newSecret")} <code data-testid="new-secret">{secret}</code>
          </p>
          {accountSid ? <p className="mt-1 text-sm text-muted">{t("basicAuthHint", { sid: accountSid })}</p> : null}
        </div>
      ) : null}
    </div>
  );
}
