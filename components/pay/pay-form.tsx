"use client";
import { useRouter } from "next/navigation";
import { useTranslations } from "next-intl";
import { useEffect, useRef, useState } from "react";

import { payAnswer } from "./pay-answer";
import { useTokenizerFrame } from "./use-tokenizer-frame";

/**
 * The card form of every hosted payment page: the card fields are in the tokenizer's own frame
 * (this page never sees the number or the CVC); this form holds the receipt e-mail and the button.
 * A decline is explained in plain words and the customer can try again at once.
 */
export function PayForm({
  requestId,
  publishableKey,
  locale,
  accent,
  amountLabel,
  bankPayments = false,
  achAuthorization,
  staff = false,
  tokenizerOrigin,
  receiptEmail,
  saveConsent,
}: {
  requestId: string;
  publishableKey: string;
  /** The card frame's own origin (TOKENIZER_ORIGIN): this page can neither read it nor be read by it. */
  tokenizerOrigin: string;
  locale: string;
  accent: string;
  amountLabel: string;
  /** Offer "pay by bank account" (ACH) beside the card. */
  bankPayments?: boolean;
  /** The bank debit's authorization, in the page's language: shown with a box the payer checks. */
  achAuthorization?: string;
  /** The virtual terminal: the merchant's staff types what the customer gives; words addressed to them. */
  staff?: boolean;
  /** The receipt's address to start with: an invoice's, where it was sent (the customer may change it). */
  receiptEmail?: string | null;
  /** A request for a customer: the box "save this card for future payments", its words by method (what is kept). */
  saveConsent?: { card: string; bank_account: string };
}) {
  const t = useTranslations("pay");
  const router = useRouter();
  const { frame, height, frameShown, setFrameShown, pageOrigin, measure, tokenize } = useTokenizerFrame(
    tokenizerOrigin,
    () => document.getElementById("pay-button")?.click(),
  );
  const [method, setMethod] = useState<"card" | "bank_account">("card");
  const [busy, setBusy] = useState(false);
  const [email, setEmail] = useState(receiptEmail ?? "");
  const [authorized, setAuthorized] = useState(false);
  // Off by default: a card is kept only when the payer ticks the box.
  const [saving, setSaving] = useState(false);
  const [consentError, setConsentError] = useState(false);
  const [emailError, setEmailError] = useState<string | null>(null);
  const [problem, setProblem] = useState<{ title: string; body: string } | null>(null);
  const problemRef = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (problem) problemRef.current?.focus();
  }, [problem]);

  async function pay(event: React.FormEvent) {
    event.preventDefault();
    if (busy) return;
    setProblem(null);
    const trimmed = email.trim();
    if (trimmed && !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(trimmed)) {
      setEmailError(t("emailInvalid"));
      document.getElementById("receipt-email")?.focus();
      return;
    }
    setEmailError(null);
    if (method === "bank_account" && !authorized) {
      setConsentError(true);
      document.getElementById("ach-consent")?.focus();
      return;
    }
    setBusy(true);
    try {
      const tokenized = await tokenize();
      if (tokenized.type === "invalid") return;
      if (tokenized.type !== "token" || !tokenized.token) {
        setProblem({ title: t("declinedTitle"), body: tokenized.message ?? t("decline_processing_error") });
        return;
      }
      const res = await fetch(`/v1/payment_requests/${requestId}/pay`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({
          token: tokenized.token,
          // The receipt in the language the payer reads this page in.
          locale: locale === "es" ? "es" : "en",
          ...(trimmed ? { email: trimmed } : {}),
          ...(method === "bank_account"
            ? { ach_authorization: { accepted: true, locale: locale === "es" ? "es" : "en" } }
            : {}),
          ...(saveConsent && saving ? { save_payment_method: { accepted: true } } : {}),
        }),
      });
      const answer = payAnswer(res.status, await res.json().catch(() => ({})), method, res.statusText);
      if (answer.kind === "refresh") {
        router.refresh();
        return;
      }
      const { problem: said } = answer;
      setProblem({
        title: t("declinedTitle"),
        // A decline's key is built from its reason: every reason of failureReasons has its message.
        body: said.key === "payError" ? t("payError", { message: said.message }) : t(said.key as "decline_unknown"),
      });
    } catch {
      setProblem({ title: t("declinedTitle"), body: t("decline_processing_error") });
    } finally {
      setBusy(false);
    }
  }

  const src = pageOrigin
    ? `${tokenizerOrigin}/tokenizer/${method}?key=${encodeURIComponent(publishableKey)}&locale=${locale}&accent=${encodeURIComponent(accent)}&origin=${encodeURIComponent(pageOrigin)}`
    : null;
  return (
    <form onSubmit={pay} noValidate className="space-y-4" aria-busy={busy}>
      {problem ? (
        <div
          ref={problemRef}
          tabIndex={-1}
          role="alert"
          className="rounded-lg border border-red-700 bg-red-50 p-4 text-red-900"
          data-testid="pay-problem"
        >
          <p className="font-semibold">{problem.title}</p>
          <p className="mt-1">{problem.body}</p>
        </div>
      ) : null}
      {staff ? (
        <h2 className="text-lg font-semibold" data-testid="staff-heading">
          {method === "card" ? t("staffCard") : t("staffBank")}
        </h2>
      ) : null}
      {bankPayments ? (
        <fieldset>
          <legend className="mb-2 text-[15px] font-semibold">{t("payWith")}</legend>
          <div className="grid grid-cols-2 gap-2">
            {(["card", "bank_account"] as const).map((m) => (
              <label
                key={m}
                className={`flex min-h-[44px] cursor-pointer items-center gap-2 rounded-lg border px-3 py-2 ${method === m ? "border-primary ring-2 ring-primary" : "border-slate-500"}`}
              >
                <input
                  type="radio"
                  name="payment-method"
                  value={m}
                  checked={method === m}
                  onChange={() => {
                    setProblem(null);
                    setFrameShown(false);
                    setMethod(m);
                  }}
                />
                {m === "card" ? t("methodCard") : t("methodBank")}
              </label>
            ))}
          </div>
        </fieldset>
      ) : null}
      <div className="relative" style={{ height }}>
        {src ? (
          <iframe
            key={method}
            ref={frame}
            src={src}
            onLoad={measure}
            title={method === "card" ? t("cardFrame") : t("bankFrame")}
            className={`block w-full border-0 ${frameShown ? "" : "opacity-0"}`}
            style={{ height }}
            data-testid="tokenizer-frame"
          />
        ) : null}
        {frameShown ? null : (
          <div className="absolute inset-0 space-y-3" role="status" data-testid="frame-loading">
            <span className="sr-only">{method === "card" ? t("cardFrameLoading") : t("bankFrameLoading")}</span>
            {/* The shape of the fields to come: a label and a box each. */}
            {[0, 1].map((i) => (
              <div key={i} aria-hidden="true" className="animate-pulse space-y-1.5 motion-reduce:animate-none">
                <div className="h-4 w-28 rounded bg-slate-200" />
                <div className="h-11 rounded-lg border border-slate-200 bg-slate-100" />
              </div>
            ))}
          </div>
        )}
      </div>
      <div>
        <label htmlFor="receipt-email" className="mb-1 block text-[15px] font-semibold">
          {staff ? t("staffEmail") : t("email")}
        </label>
        <input
          id="receipt-email"
          type="email"
          autoComplete="email"
          inputMode="email"
          value={email}
          onChange={(e) => setEmail(e.target.value)}
          aria-invalid={emailError ? true : undefined}
          aria-describedby={emailError ? "receipt-email-error" : undefined}
          className="min-h-[44px] w-full rounded-lg border border-slate-500 bg-white px-3 py-2 text-ink"
        />
        {emailError ? (
          <p id="receipt-email-error" className="mt-1 text-sm text-red-700">
            {emailError}
          </p>
        ) : null}
      </div>
      {method === "bank_account" && achAuthorization ? (
        <div className="rounded-lg border border-slate-500 bg-white p-3 text-ink">
          <p id="ach-authorization-text" className="text-sm" data-testid="ach-authorization">
            {achAuthorization}
          </p>
          <label className="mt-2 flex min-h-[44px] items-center gap-2 font-semibold">
            <input
              id="ach-consent"
              type="checkbox"
              className="h-5 w-5"
              checked={authorized}
              aria-describedby={`ach-authorization-text${consentError ? " ach-consent-error" : ""}`}
              aria-invalid={consentError ? true : undefined}
              onChange={(e) => {
                setAuthorized(e.target.checked);
                if (e.target.checked) setConsentError(false);
              }}
            />
            {t("achConsent")}
          </label>
          {consentError ? (
            <p id="ach-consent-error" role="alert" className="mt-1 text-sm text-red-700">
              {t("achConsentRequired")}
            </p>
          ) : null}
        </div>
      ) : null}
      {saveConsent ? (
        <label className="flex min-h-[44px] items-start gap-3 rounded-lg border border-slate-500 bg-white p-3 text-ink">
          <input
            id="save-method"
            type="checkbox"
            className="mt-0.5 h-5 w-5 shrink-0"
            checked={saving}
            onChange={(e) => setSaving(e.target.checked)}
            data-testid="save-method"
          />
          <span className="text-sm">{saveConsent[method]}</span>
        </label>
      ) : null}
      <button
        id="pay-button"
        type="submit"
        disabled={busy}
        className="min-h-[48px] w-full rounded-lg bg-primary px-4 py-3 text-lg font-semibold text-on-primary disabled:opacity-70"
      >
        {busy ? t("paying") : staff ? t("staffPay", { amount: amountLabel }) : t("pay", { amount: amountLabel })}
      </button>
    </form>
  );
}
