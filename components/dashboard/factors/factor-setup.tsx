"use client";
import { startRegistration } from "@simplewebauthn/browser";
import { useRouter } from "next/navigation";
import { useTranslations } from "next-intl";
import { useId, useState, useTransition } from "react";

import { primaryButtonClass } from "@/components/ui/button";
import { inputClass } from "@/components/ui/input-class";
import { confirmTotpAction, passkeyOptionsAction, registerPasskeyAction, startTotpAction } from "@/lib/actions/factors";
import type { Refusal } from "@/lib/actions/result";
import { finishEnrolmentAction } from "@/lib/actions/sign-in-steps";

import { RecoveryCodes } from "./recovery-codes";

type App = { factorId: string; secret: string; qr: string };

/** The words for a refusal: a stale sign-in, a wrong code, a refused passkey, or the server's own. */
function useRefusalText() {
  const t = useTranslations("security");
  return (refusal: Refusal) =>
    refusal.code === "reauthentication_required"
      ? t("errors.fresh")
      : refusal.code === "invalid_second_factor"
        ? t("errors.code")
        : refusal.message;
}

/**
 * Sets up a second factor: an authenticator app (its QR code or key, then its first code) or a
 * passkey. At the sign-in (`mode="sign-in"`) it finishes the sign-in; the first factor's recovery
 * codes are shown once, then the member goes on.
 */
export function FactorSetup({ mode }: { mode: "sign-in" | "settings" }) {
  const t = useTranslations("security");
  const router = useRouter();
  const id = useId();
  const refusalText = useRefusalText();
  const [app, setApp] = useState<App | null>(null);
  const [code, setCode] = useState("");
  const [passkeyName, setPasskeyName] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState<{ codes: string[] | null } | null>(null);
  const [pending, start] = useTransition();

  const finished = (result: { codes: string[] | null }) => {
    setDone(result);
    setApp(null);
    if (mode === "sign-in" && !result.codes) void finishEnrolmentAction();
    if (mode === "settings") router.refresh();
  };

  if (done?.codes)
    return (
      <div className="mt-4 space-y-4">
        <RecoveryCodes codes={done.codes} />
        {mode === "sign-in" ? (
          <form action={finishEnrolmentAction}>
            <button type="submit" className={primaryButtonClass()}>
              {t("continue")}
            </button>
          </form>
        ) : null}
      </div>
    );
  if (done)
    return (
      <p role="status" className="mt-2 text-sm">
        {t("added")}
      </p>
    );

  return (
    <div className="mt-4 space-y-6">
      {error ? (
        <p role="alert" className="rounded-lg border border-danger bg-card p-3 text-danger">
          {error}
        </p>
      ) : null}
      <section aria-labelledby={`${id}-app`} className="rounded-lg border border-line bg-card p-4">
        <h2 id={`${id}-app`} className="font-semibold">
          {t("appTitle")}
        </h2>
        <p className="text-sm text-muted">{t("appHint")}</p>
        {app ? (
          <form
            className="mt-3 space-y-3"
            onSubmit={(event) => {
              event.preventDefault();
              start(async () => {
                setError(null);
                const result = await confirmTotpAction(app.factorId, code);
                if (result.ok) finished(result.value);
                else setError(refusalText(result));
              });
            }}
          >
            <img
              src={app.qr}
              alt={t("qrAlt")}
              width={220}
              height={220}
              className="rounded border border-line bg-white"
            />
            <p className="text-sm">
              {t("keyInstead")}{" "}
              <code className="break-all rounded bg-surface px-1 font-mono" data-testid="totp-secret">
                {app.secret}
              </code>
            </p>
            <div>
              <label htmlFor={`${id}-code`} className="block text-sm font-medium">
                {t("firstCode")}
              </label>
              <input
                id={`${id}-code`}
                value={code}
                onChange={(e) => setCode(e.target.value)}
                required
                autoComplete="one-time-code"
                inputMode="numeric"
                maxLength={9}
                className={inputClass()}
              />
            </div>
            <button type="submit" disabled={pending} className={primaryButtonClass("md")}>
              {t("confirmApp")}
            </button>
          </form>
        ) : (
          <button
            type="button"
            disabled={pending}
            className={primaryButtonClass("md", "mt-3")}
            onClick={() =>
              start(async () => {
                setError(null);
                const result = await startTotpAction();
                if (result.ok) setApp(result.value);
                else setError(refusalText(result));
              })
            }
          >
            {t("startApp")}
          </button>
        )}
      </section>
      <section aria-labelledby={`${id}-passkey`} className="rounded-lg border border-line bg-card p-4">
        <h2 id={`${id}-passkey`} className="font-semibold">
          {t("passkeyTitle")}
        </h2>
        <p className="text-sm text-muted">{t("passkeyHint")}</p>
        <label htmlFor={`${id}-name`} className="mt-3 block text-sm font-medium">
          {t("passkeyName")}
        </label>
        <input
          id={`${id}-name`}
          value={passkeyName}
          onChange={(e) => setPasskeyName(e.target.value)}
          maxLength={60}
          placeholder={t("passkeyNamePlaceholder")}
          className={inputClass()}
        />
        <button
          type="button"
          disabled={pending}
          className="mt-3 rounded-lg border border-line px-4 py-2 font-medium"
          onClick={() =>
            start(async () => {
              setError(null);
              const options = await passkeyOptionsAction();
              if (!options.ok) return setError(refusalText(options));
              try {
                const answer = await startRegistration({ optionsJSON: options.value });
                const result = await registerPasskeyAction(answer, passkeyName);
                if (result.ok) finished(result.value);
                else setError(refusalText(result));
              } catch {
                setError(t("errors.passkeyCancelled"));
              }
            })
          }
        >
          {t("addPasskey")}
        </button>
      </section>
    </div>
  );
}
