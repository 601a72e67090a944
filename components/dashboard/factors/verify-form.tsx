"use client";
import { startAuthentication } from "@simplewebauthn/browser";
import { useTranslations } from "next-intl";
import { useActionState, useState, useTransition } from "react";

import { primaryButtonClass } from "@/components/ui/button";
import { inputClass } from "@/components/ui/input-class";
import {
  passkeySignInOptionsAction,
  verifyCodeAction,
  verifyPasskeyAction,
  type VerifyState,
} from "@/lib/actions/sign-in-steps";

/** The sign-in's second step: a code (an app's six digits or a recovery code), or a passkey. */
export function VerifyForm({ hasApp, hasPasskey }: { hasApp: boolean; hasPasskey: boolean }) {
  const t = useTranslations("security");
  const [state, action, pending] = useActionState<VerifyState, FormData>(verifyCodeAction, { error: null });
  const [passkeyState, setPasskeyState] = useState<VerifyState["error"] | "cancelled">(null);
  const [passkeyPending, start] = useTransition();
  const error = state.error ?? passkeyState;
  const usePasskey = () =>
    start(async () => {
      setPasskeyState(null);
      const options = await passkeySignInOptionsAction();
      if (!options) return setPasskeyState("expired");
      try {
        const answer = await startAuthentication({ optionsJSON: options });
        setPasskeyState((await verifyPasskeyAction(answer)).error);
      } catch {
        setPasskeyState("cancelled");
      }
    });
  return (
    <div className="mt-6 space-y-6">
      {error ? (
        <p role="alert" className="rounded-lg border border-danger bg-card p-3 text-danger">
          {t(`verifyErrors.${error}`)}
        </p>
      ) : null}
      {hasPasskey ? (
        <button
          type="button"
          onClick={usePasskey}
          disabled={passkeyPending}
          className={primaryButtonClass("lg", "w-full")}
        >
          {t("usePasskey")}
        </button>
      ) : null}
      <form action={action} className="space-y-4">
        <div>
          <label htmlFor="code" className="block text-sm font-medium">
            {t("code")}
          </label>
          <p id="code-hint" className="text-sm text-muted">
            {hasApp ? t("codeHint") : t("recoveryHint")}
          </p>
          <input
            id="code"
            name="code"
            required
            autoComplete="one-time-code"
            inputMode={hasApp ? "numeric" : "text"}
            aria-describedby="code-hint"
            maxLength={32}
            className={inputClass()}
          />
        </div>
        <button
          type="submit"
          disabled={pending}
          className={hasPasskey ? "rounded-lg border border-line px-4 py-2 font-medium" : primaryButtonClass()}
        >
          {t("verify")}
        </button>
      </form>
    </div>
  );
}
