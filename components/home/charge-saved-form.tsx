"use client";
import { useRouter } from "next/navigation";
import { useLocale, useTranslations } from "next-intl";
import { useState, useTransition } from "react";

import { primaryButtonClass } from "@/components/ui/button";
import { inputClass } from "@/components/ui/input-class";
import type { SavedChargeResult } from "@/lib/actions/home-customers";
import { intlLocale } from "@/lib/i18n/locales";
import { formatCents, typedDollarsToCents } from "@/lib/money";

export type SavedMethodChoice = { id: string; label: string };

/**
 * Charges a customer's saved card again from the merchant's home (the customer not present): the
 * card, the amount in dollars as typed (whole cents, no floating point) and what it is for; the
 * outcome in words, a decline's reason included.
 */
export function ChargeSavedForm({
  customerId,
  methods,
  action,
}: {
  customerId: string;
  methods: SavedMethodChoice[];
  action: (input: unknown) => Promise<SavedChargeResult>;
}) {
  const t = useTranslations("merchantHome.customers");
  const locale = intlLocale(useLocale());
  const router = useRouter();
  const [method, setMethod] = useState(methods[0]?.id ?? "");
  const [amount, setAmount] = useState("");
  const [description, setDescription] = useState("");
  const [outcome, setOutcome] = useState<{ ok: boolean; text: string } | null>(null);
  const [pending, start] = useTransition();
  const input = inputClass();
  return (
    <form
      noValidate
      className="mt-3 grid gap-3 sm:grid-cols-2"
      onSubmit={(e) => {
        e.preventDefault();
        const cents = typedDollarsToCents(amount);
        if (cents === null || cents < 1) {
          setOutcome({ ok: false, text: t("amountInvalid") });
          document.getElementById("charge-amount")?.focus();
          return;
        }
        setOutcome(null);
        start(async () => {
          const result = await action({
            customer: customerId,
            payment_method: method,
            amount: cents,
            ...(description.trim() ? { description: description.trim() } : {}),
          });
          if (result.ok) {
            setOutcome({
              ok: true,
              text: t("charged", { amount: formatCents(result.amount, locale), last4: result.last4 ?? "" }),
            });
            setAmount("");
            setDescription("");
            router.refresh();
          } else if (result.code === "card_declined")
            setOutcome({ ok: false, text: t("declined", { reason: t(`declines.${declineKey(result.declineCode)}`) }) });
          else setOutcome({ ok: false, text: t("chargeError", { message: result.message }) });
        });
      }}
    >
      <div>
        <label htmlFor="charge-method" className="block text-sm font-medium">
          {t("card")}
        </label>
        <select id="charge-method" value={method} onChange={(e) => setMethod(e.target.value)} className={input}>
          {methods.map((m) => (
            <option key={m.id} value={m.id}>
              {m.label}
            </option>
          ))}
        </select>
      </div>
      <div>
        <label htmlFor="charge-amount" className="block text-sm font-medium">
          {t("amount")}
        </label>
        <input
          id="charge-amount"
          inputMode="decimal"
          value={amount}
          onChange={(e) => setAmount(e.target.value)}
          aria-describedby={outcome ? "charge-outcome" : undefined}
          className={input}
        />
      </div>
      <div className="sm:col-span-2">
        <label htmlFor="charge-description" className="block text-sm font-medium">
          {t("description")} <span className="font-normal text-muted">{t("optional")}</span>
        </label>
        <input
          id="charge-description"
          value={description}
          maxLength={500}
          onChange={(e) => setDescription(e.target.value)}
          className={input}
        />
      </div>
      <div className="sm:col-span-2">
        <button type="submit" disabled={pending} className={primaryButtonClass("md", "min-h-[44px]")}>
          {pending ? t("charging") : t("charge")}
        </button>
      </div>
      {outcome ? (
        <p
          id="charge-outcome"
          role={outcome.ok ? "status" : "alert"}
          data-testid="charge-outcome"
          className={`sm:col-span-2 ${outcome.ok ? "text-green-800" : "text-red-700"}`}
        >
          {outcome.text}
        </p>
      ) : null}
    </form>
  );
}

const known = ["insufficient_funds", "lost_card", "stolen_card", "expired_card", "processing_error"] as const;
const declineKey = (code: string | undefined) =>
  (known as readonly string[]).includes(code ?? "") ? (code as (typeof known)[number]) : "card_declined";
