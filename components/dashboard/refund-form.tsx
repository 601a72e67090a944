"use client";
import { useLocale, useTranslations } from "next-intl";
import { useState, useTransition } from "react";

import { refundAction } from "@/lib/actions/dashboard";
import { intlLocale } from "@/lib/i18n/locales";
import { formatCents } from "@/lib/money";

const money = (cents: number, locale: string) => formatCents(cents, intlLocale(locale));

/** Refund part or all of a charge: the amount in dollars as typed, turned into whole cents without floating point. */
export function RefundForm({ chargeId, merchantId, left }: { chargeId: string; merchantId: string; left: number }) {
  const t = useTranslations("dashboard");
  const locale = useLocale();
  const [value, setValue] = useState(`${Math.trunc(left / 100)}.${String(left % 100).padStart(2, "0")}`);
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);
  const [pending, start] = useTransition();
  const id = `refund-${chargeId}`;
  return (
    <form
      className="flex flex-wrap items-end gap-2"
      onSubmit={(e) => {
        e.preventDefault();
        const match = /^\s*(\d{1,7})(?:[.,](\d{1,2}))?\s*$/.exec(value);
        if (!match) {
          setMessage({ ok: false, text: t("refundError", { message: "0.01 - 99999.99" }) });
          return;
        }
        const cents = Number(match[1]) * 100 + Number((match[2] ?? "").padEnd(2, "0"));
        start(async () => {
          const result = await refundAction({ charge_id: chargeId, amount: cents }, merchantId);
          setMessage(
            result.ok
              ? { ok: true, text: t("refundDone", { amount: money(result.amount, locale) }) }
              : { ok: false, text: t("refundError", { message: result.error }) },
          );
        });
      }}
    >
      <label htmlFor={id} className="sr-only">
        {t("refundAmount", { charge: chargeId })}
      </label>
      <input
        id={id}
        inputMode="decimal"
        value={value}
        onChange={(e) => setValue(e.target.value)}
        className="w-24 rounded border border-line bg-card px-2 py-1"
      />
      <button type="submit" disabled={pending} className="rounded border border-line px-3 py-1 font-semibold">
        {t("refund")}
      </button>
      {message ? (
        <p
          role={message.ok ? "status" : "alert"}
          className={message.ok ? "w-full text-green-800" : "w-full text-red-700"}
        >
          {message.text}
        </p>
      ) : null}
    </form>
  );
}
