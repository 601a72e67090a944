"use client";

import { useLocale, useTranslations } from "next-intl";
import { useState, useTransition } from "react";

import { primaryButtonClass } from "@/components/ui/button";
import { inputClass } from "@/components/ui/input-class";
import { homePayOutAction } from "@/lib/actions/home-payouts";
import { intlLocale } from "@/lib/i18n/locales";
import { formatCents, typedDollarsToCents } from "@/lib/money";

/**
 * "Pay out now" (docs/reference.md section 20): the amount available, an amount to send (all of it
 * when left empty), and a confirmation that says the amount and where it goes before anything moves.
 */
export function PayOutNow({ available, bankLast4 }: { available: number; bankLast4: string | null }) {
  const t = useTranslations("payouts.payNow");
  const locale = intlLocale(useLocale());
  const [amount, setAmount] = useState("");
  const [confirming, setConfirming] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState<number | null>(null);
  const [pending, start] = useTransition();
  const money = (cents: number) => formatCents(cents, locale);
  return (
    <div className="mt-3">
      <p>{t("available", { amount: money(available) })}</p>
      {confirming === null ? (
        <form
          noValidate
          className="mt-3 flex flex-wrap items-end gap-3"
          onSubmit={(e) => {
            e.preventDefault();
            setDone(null);
            const cents = amount.trim() === "" ? available : typedDollarsToCents(amount);
            if (cents === null || cents <= 0) return setError(t("invalid"));
            if (cents > available) return setError(t("tooMuch", { amount: money(available) }));
            setError(null);
            setConfirming(cents);
          }}
        >
          <div className="min-w-48">
            <label htmlFor="pay-out-amount" className="block text-sm font-medium">
              {t("amount")}
            </label>
            <input
              id="pay-out-amount"
              inputMode="decimal"
              autoComplete="off"
              placeholder={(available / 100).toFixed(2)}
              value={amount}
              onChange={(e) => setAmount(e.target.value)}
              aria-invalid={error ? true : undefined}
              aria-describedby={error ? "pay-out-error" : "pay-out-hint"}
              className={inputClass()}
            />
          </div>
          <button type="submit" className={primaryButtonClass("md", "py-2.5")} disabled={available <= 0}>
            {t("button")}
          </button>
          <p id="pay-out-hint" className="w-full text-sm text-muted">
            {t("hint")}
          </p>
        </form>
      ) : (
        <div className="mt-3 rounded-lg border border-line p-3" role="group" aria-labelledby="pay-out-question">
          <p id="pay-out-question" className="font-medium">
            {bankLast4
              ? t("confirm", { amount: money(confirming), last4: bankLast4 })
              : t("confirmNoBank", { amount: money(confirming) })}
          </p>
          <div className="mt-3 flex flex-wrap gap-3">
            <button
              type="button"
              disabled={pending}
              className={primaryButtonClass("md")}
              onClick={() =>
                start(async () => {
                  // The amount confirmed, exactly (not "all", which may have changed since it was shown).
                  const dollars = `${Math.trunc(confirming / 100)}.${String(confirming % 100).padStart(2, "0")}`;
                  const result = await homePayOutAction({ amount: dollars });
                  setConfirming(null);
                  if (result.ok) {
                    setAmount("");
                    setDone(result.amount ?? confirming);
                    return;
                  }
                  const code = result.errors[0]?.code;
                  setError(
                    code === "insufficient_funds"
                      ? t("nothingLeft")
                      : code === "payouts_held"
                        ? t("held")
                        : t("invalid"),
                  );
                })
              }
            >
              {t("yes")}
            </button>
            <button
              type="button"
              className="rounded-lg border border-line px-4 py-2"
              onClick={() => setConfirming(null)}
            >
              {t("cancel")}
            </button>
          </div>
        </div>
      )}
      <p role="status" className="mt-2 text-sm" data-testid="pay-out-status">
        {done !== null ? t("done", { amount: money(done) }) : ""}
      </p>
      {error ? (
        <p id="pay-out-error" role="alert" className="mt-1 text-sm text-danger">
          {error}
        </p>
      ) : null}
    </div>
  );
}
