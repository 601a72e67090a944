"use client";
import { useRouter } from "next/navigation";
import { useLocale, useTranslations } from "next-intl";
import { useState, useTransition } from "react";

import { refundAction } from "@/lib/actions/dashboard";
import { intlLocale } from "@/lib/i18n/locales";
import { formatCents, typedDollarsToCents } from "@/lib/money";
import { refundReasons } from "@/lib/schemas/payment-values";

type Reason = (typeof refundReasons)[number];

/**
 * Refund part or all of a charge: the amount (nothing prefilled: the merchant says how much) and the
 * reason, then a confirmation that repeats both and the card it goes back to; only the confirmation
 * sends it. The amount's rule is the API's (at least 1 cent, at most what is left).
 */
export function RefundForm({
  chargeId,
  left,
  paidWith,
  action = refundAction,
}: {
  chargeId: string;
  left: number;
  paidWith: string;
  /** The server action that refunds (the ISV's dashboard's by default; the merchant's home passes its own). */
  action?: typeof refundAction;
}) {
  const t = useTranslations("dashboard");
  const locale = useLocale();
  const router = useRouter();
  const money = (cents: number) => formatCents(cents, intlLocale(locale));
  const [value, setValue] = useState("");
  const [reason, setReason] = useState<Reason>("requested_by_customer");
  const [confirming, setConfirming] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const [pending, start] = useTransition();
  return (
    <section aria-labelledby="refund-title" className="rounded-lg border border-line bg-card p-4">
      <h2 id="refund-title" className="text-lg font-semibold">
        {t("refundTitle")}
      </h2>
      {done ? (
        <p role="status" className="mt-2 text-green-800">
          {done}
        </p>
      ) : null}
      {confirming === null ? (
        <form
          className="mt-3 space-y-3"
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            setDone(null);
            const cents = typedDollarsToCents(value);
            if (cents === null || cents < 1) return setError(t("refundAmountInvalid"));
            if (cents > left) return setError(t("refundTooMuch", { left: money(left) }));
            setError(null);
            setConfirming(cents);
          }}
        >
          <div>
            <label htmlFor="refund-amount" className="block text-sm font-medium">
              {t("refundAmountLabel")}
            </label>
            <input
              id="refund-amount"
              inputMode="decimal"
              value={value}
              onChange={(e) => setValue(e.target.value)}
              aria-describedby={error ? "refund-error refund-hint" : "refund-hint"}
              aria-invalid={error ? true : undefined}
              className="mt-1 block w-40 rounded-lg border border-line bg-card px-3 py-2 aria-[invalid=true]:border-danger"
            />
            <p id="refund-hint" className="mt-1 text-sm text-muted">
              {t("refundHint", { left: money(left) })}
            </p>
            {error ? (
              <p id="refund-error" role="alert" className="mt-1 text-sm font-medium text-danger">
                {error}
              </p>
            ) : null}
          </div>
          <div>
            <label htmlFor="refund-reason" className="block text-sm font-medium">
              {t("refundReasonLabel")}
            </label>
            <select
              id="refund-reason"
              value={reason}
              onChange={(e) => setReason(e.target.value as Reason)}
              className="mt-1 block rounded-lg border border-line bg-card px-3 py-2"
            >
              {refundReasons.map((r) => (
                <option key={r} value={r}>
                  {t(`refundReasons.${r}`)}
                </option>
              ))}
            </select>
          </div>
          <button type="submit" className="rounded-lg border border-line px-4 py-2 font-semibold">
            {t("refundReview")}
          </button>
        </form>
      ) : (
        <div className="mt-3" role="group" aria-labelledby="refund-confirm-text">
          <p id="refund-confirm-text" className="font-medium">
            {t("refundConfirm", { amount: money(confirming), to: paidWith, reason: t(`refundReasons.${reason}`) })}
          </p>
          <p className="mt-1 text-sm text-muted">{t("refundFinal")}</p>
          {error ? (
            <p role="alert" className="mt-2 text-sm font-medium text-danger">
              {error}
            </p>
          ) : null}
          <div className="mt-3 flex flex-wrap gap-3">
            <button
              type="button"
              disabled={pending}
              autoFocus
              onClick={() =>
                start(async () => {
                  const result = await action({ charge_id: chargeId, amount: confirming, reason });
                  if (result.ok) {
                    setDone(t("refundDone", { amount: money(result.amount) }));
                    setConfirming(null);
                    setValue("");
                    setError(null);
                    router.refresh();
                  } else setError(t("refundError", { message: result.error }));
                })
              }
              className="rounded-lg bg-danger px-4 py-2 font-semibold text-white disabled:opacity-60"
            >
              {t("refundConfirmButton", { amount: money(confirming) })}
            </button>
            <button
              type="button"
              disabled={pending}
              onClick={() => {
                setConfirming(null);
                setError(null);
              }}
              className="rounded-lg border border-line px-4 py-2 font-medium"
            >
              {t("refundChange")}
            </button>
          </div>
        </div>
      )}
    </section>
  );
}
