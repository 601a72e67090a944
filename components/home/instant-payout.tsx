"use client";

import { useLocale, useTranslations } from "next-intl";
import { useState, useTransition } from "react";

import { primaryButtonClass } from "@/components/ui/button";
import { inputClass } from "@/components/ui/input-class";
import { homeInstantPayoutAction } from "@/lib/actions/home-payouts";
import { intlLocale } from "@/lib/i18n/locales";
import { formatCents, typedDollarsToCents } from "@/lib/money";
import { instantFee } from "@/lib/payouts/instant-fee";
import type { InstantPayoutRail } from "@/lib/schemas/instant-payouts";

/**
 * The home's instant payout (docs/reference.md section 20): how much can arrive in minutes and at
 * what fee; an amount (all of it when empty); then a confirmation that says the amount, the fee and
 * where it goes, and asks the merchant to acknowledge that an instant payout cannot be reversed.
 */
export function InstantPayout({
  available,
  costBps,
  markupBps,
  destinations,
}: {
  available: number;
  costBps: number;
  markupBps: number;
  /** Where it can go, in words (the bank account by RTP, the debit card): the first unless the merchant chooses. */
  destinations: { rail: InstantPayoutRail; label: string }[];
}) {
  const t = useTranslations("payouts.instant");
  const locale = intlLocale(useLocale());
  const money = (cents: number) => formatCents(cents, locale);
  const feeOf = (cents: number) => instantFee(cents, costBps, markupBps).fee;
  const [amount, setAmount] = useState("");
  const [confirming, setConfirming] = useState<number | null>(null);
  const [understood, setUnderstood] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState<number | null>(null);
  const [pending, start] = useTransition();
  const [rail, setRail] = useState<InstantPayoutRail | undefined>(destinations[0]?.rail);
  const destination = destinations.find((d) => d.rail === rail)?.label ?? "";
  const percent = new Intl.NumberFormat(locale, { style: "percent", maximumFractionDigits: 2 }).format(
    (costBps + markupBps) / 10_000,
  );
  return (
    <div className="mt-3">
      <p>{t("available", { amount: money(available), destination, fee: percent })}</p>
      {destinations.length > 1 && confirming === null ? (
        <fieldset className="mt-3">
          <legend className="text-sm font-medium">{t("sendTo")}</legend>
          <div className="mt-1 flex flex-wrap gap-2">
            {destinations.map((d) => (
              <label
                key={d.rail}
                className={`flex min-h-[44px] cursor-pointer items-center gap-2 rounded-lg border px-3 py-2 ${rail === d.rail ? "border-primary ring-2 ring-primary" : "border-line"}`}
              >
                <input
                  type="radio"
                  name="instant-rail"
                  value={d.rail}
                  checked={rail === d.rail}
                  onChange={() => setRail(d.rail)}
                />
                {d.label}
              </label>
            ))}
          </div>
        </fieldset>
      ) : null}
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
            setUnderstood(false);
            setConfirming(cents);
          }}
        >
          <div className="min-w-48">
            <label htmlFor="instant-amount" className="block text-sm font-medium">
              {t("amount")}
            </label>
            <input
              id="instant-amount"
              inputMode="decimal"
              autoComplete="off"
              placeholder={(available / 100).toFixed(2)}
              value={amount}
              onChange={(e) => setAmount(e.target.value)}
              aria-invalid={error ? true : undefined}
              aria-describedby={error ? "instant-error" : undefined}
              className={inputClass()}
            />
          </div>
          <button type="submit" className={primaryButtonClass("md", "py-2.5")}>
            {t("button")}
          </button>
        </form>
      ) : (
        <div className="mt-3 rounded-lg border border-line p-3" role="group" aria-labelledby="instant-question">
          <p id="instant-question" className="font-medium">
            {t("confirm", { amount: money(confirming), fee: money(feeOf(confirming)), destination })}
          </p>
          <label className="mt-3 flex items-start gap-2">
            <input
              type="checkbox"
              className="mt-1 h-4 w-4"
              checked={understood}
              onChange={(e) => setUnderstood(e.target.checked)}
            />
            <span>{t("irreversible")}</span>
          </label>
          <div className="mt-3 flex flex-wrap gap-3">
            <button
              type="button"
              disabled={pending || !understood}
              className={primaryButtonClass("md")}
              onClick={() =>
                start(async () => {
                  const dollars = `${Math.trunc(confirming / 100)}.${String(confirming % 100).padStart(2, "0")}`;
                  const result = await homeInstantPayoutAction({ amount: dollars, irreversible: understood, rail });
                  setConfirming(null);
                  if (result.ok) {
                    setAmount("");
                    setDone(result.amount ?? confirming);
                    return;
                  }
                  const code = result.errors[0]?.code;
                  setError(code === "insufficient_funds" ? t("nothingLeft") : t("unavailable"));
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
      <p role="status" className="mt-2 text-sm" data-testid="instant-status">
        {done !== null ? t("done", { amount: money(done) }) : ""}
      </p>
      {error ? (
        <p id="instant-error" role="alert" className="mt-1 text-sm text-danger">
          {error}
        </p>
      ) : null}
    </div>
  );
}
