"use client";
import { useLocale, useTranslations } from "next-intl";
import { useState } from "react";

import { inputClass } from "@/components/ui/input-class";
import { choosePlatformFee } from "@/lib/domain/fees/platform-fee";
import { intlLocale } from "@/lib/i18n/locales";
import { formatCents, typedDollarsToCents } from "@/lib/money";
import { paymentTypes } from "@/lib/schemas/payment-values";

import type { ParsedRows } from "./rule-rows";

/** The fee a payment of the amount and type typed here would pay under the rules as typed, before they are saved. */
export function FeePreview({ id, parsed }: { id: string; parsed: ParsedRows }) {
  const t = useTranslations("revenue");
  const locale = intlLocale(useLocale());
  const [amount, setAmount] = useState("100.00");
  const [type, setType] = useState<(typeof paymentTypes)[number]>("SCAN_TO_PAY");
  const cents = typedDollarsToCents(amount.replace(/^\$/, ""));
  const preview =
    parsed.ok && cents !== null
      ? choosePlatformFee(undefined, parsed.rules, { paymentType: type, total: cents, merchantId: "" })
      : null;
  return (
    <div className="mt-4 rounded-lg bg-surface p-3" data-testid="fee-preview">
      <h3 className="font-medium">{t("previewTitle")}</h3>
      <div className="mt-2 grid gap-3 sm:grid-cols-2">
        <div>
          <label htmlFor={`${id}-preview-amount`} className="block text-sm font-medium">
            {t("previewAmount")}
          </label>
          <input
            id={`${id}-preview-amount`}
            value={amount}
            inputMode="decimal"
            onChange={(e) => setAmount(e.target.value)}
            className={inputClass()}
          />
        </div>
        <div>
          <label htmlFor={`${id}-preview-type`} className="block text-sm font-medium">
            {t("previewType")}
          </label>
          <select
            id={`${id}-preview-type`}
            value={type}
            onChange={(e) => setType(e.target.value as (typeof paymentTypes)[number])}
            className={inputClass()}
          >
            {paymentTypes.map((p) => (
              <option key={p} value={p}>
                {t(`paymentTypes.${p}`)}
              </option>
            ))}
          </select>
        </div>
      </div>
      <p className="mt-2" role="status" data-testid="fee-preview-result">
        {!parsed.ok || cents === null
          ? t("previewUnavailable")
          : preview
            ? t("previewFee", {
                fee: formatCents(preview.amount, locale),
                rule: preview.source.kind === "rule" ? preview.source.index + 1 : 0,
              })
            : t("previewNone")}
      </p>
    </div>
  );
}
