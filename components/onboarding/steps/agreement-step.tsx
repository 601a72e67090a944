"use client";
import { useMutation } from "@tanstack/react-query";
import { useFormatter, useTranslations } from "next-intl";
import { useState } from "react";

import { primaryButtonClass } from "@/components/ui/button";
import { inputClass } from "@/components/ui/input-class";
import type { LooseJson } from "@/lib/loose-json";

import { SaveError, signAgreement, submitApplication } from "../session-api";
import type { StepProps } from "../step-props";

// The agreement: generated from the application and pricing, downloadable as PDF, signed by owner
// one with a typed name; signing submits the application (one action).
export function AgreementStep({ session, agreement }: StepProps) {
  const t = useTranslations("agreement");
  const tw = useTranslations("wizard");
  const format = useFormatter();
  const owner = (session.merchant as LooseJson).owner_one ?? {};
  const ownerName = [owner.first_name, owner.last_name].filter(Boolean).join(" ");
  const [name, setName] = useState("");
  const [signed, setSigned] = useState(session.agreement);
  const [error, setError] = useState<string | null>(null);
  const [signError, setSignError] = useState<string | null>(null);
  const submit = useMutation({
    mutationFn: submitApplication,
    // `submitted=1`: this page load follows a submission (an embedded component tells its host page so).
    onSuccess: () => window.location.assign("/onboarding/complete?submitted=1"),
    onError: () => setError(tw("saveFailed")),
  });
  // Signing submits (one action, as the button says). The name is the mutation's variable: a retry
  // signs what was sent, never what is typed since.
  const sign = useMutation({
    mutationFn: (typed: string) => signAgreement(typed),
    onSuccess: (s) => {
      setSigned({ signed: true, name: s.name, signed_at: s.signed_at });
      setSignError(null);
      submit.mutate();
    },
    onError: (e) => {
      setSignError(e instanceof SaveError && e.status === 400 ? t("mismatch") : tw("saveFailed"));
      document.getElementById("signature")?.focus();
    },
  });
  return (
    <div>
      <p className="mb-4">{t("intro")}</p>
      {agreement ? (
        <article
          className="mb-6 max-h-96 overflow-y-auto rounded-lg border border-line bg-card p-4 text-sm"
          tabIndex={0}
          aria-label={agreement.title}
        >
          <h2 className="mb-2 text-lg font-semibold">{agreement.title}</h2>
          {agreement.sections.map((s, i) => (
            <section key={i} className="mb-3">
              {s.heading ? <h3 className="font-semibold">{s.heading}</h3> : null}
              {s.lines.map((l, j) => (
                <p key={j} className="whitespace-pre-wrap">
                  {l}
                </p>
              ))}
            </section>
          ))}
        </article>
      ) : null}
      {error ? (
        <p role="alert" className="mb-4 rounded-lg border border-danger bg-card p-3 text-danger">
          {error}
        </p>
      ) : null}
      {signed.signed ? (
        // Signed earlier (or the submission after signing failed): the signature stands, submit again.
        <div role="status" className="mb-4">
          <p className="font-medium">
            {t("signed", {
              name: signed.name ?? "",
              date: signed.signed_at
                ? format.dateTime(new Date(signed.signed_at), { dateStyle: "long", timeStyle: "short" })
                : "",
            })}
          </p>
          <a href="/v1/onboarding/session/agreement.pdf" className="mt-2 inline-block underline" download>
            {t("download")}
          </a>
          <button
            type="button"
            disabled={submit.isPending}
            onClick={() => submit.mutate()}
            className={primaryButtonClass("lg", "mt-4 block")}
          >
            {submit.isPending ? t("submitting") : t("submit")}
          </button>
        </div>
      ) : (
        <form
          className="mb-4"
          onSubmit={(e) => {
            e.preventDefault();
            if (name.trim()) sign.mutate(name);
          }}
        >
          <a href="/v1/onboarding/session/agreement.pdf" className="mb-4 inline-block underline" download>
            {t("downloadUnsigned")}
          </a>
          <label htmlFor="signature" className="block text-sm font-medium">
            {t("signLabel")}
          </label>
          <input
            id="signature"
            value={name}
            onChange={(e) => setName(e.target.value)}
            autoComplete="name"
            aria-describedby={signError ? "signature-error signature-hint" : "signature-hint"}
            aria-invalid={signError ? true : undefined}
            className={inputClass("text-base")}
          />
          {signError ? (
            <p id="signature-error" role="alert" className="mt-1 text-sm font-medium text-danger">
              {signError}
            </p>
          ) : null}
          <p id="signature-hint" className="mt-1 text-sm text-muted">
            {t("signHint", { name: ownerName })}
          </p>
          <p className="mt-3 text-sm">{t("signAndSubmitNote")}</p>
          <button
            type="submit"
            disabled={sign.isPending || submit.isPending || !name.trim()}
            className={primaryButtonClass("lg", "mt-3")}
          >
            {sign.isPending || submit.isPending ? t("submitting") : t("signAndSubmit")}
          </button>
        </form>
      )}
    </div>
  );
}
