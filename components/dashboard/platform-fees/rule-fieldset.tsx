"use client";
import { useTranslations } from "next-intl";

import { inputClass } from "@/components/ui/input-class";
import { enumLabel } from "@/lib/i18n/dynamic";
import { paymentTypes } from "@/lib/schemas/payment-values";

import type { ParsedRows, Row } from "./rule-rows";

/**
 * One rule as a fieldset: when it applies (payment type, card present, merchants, amounts) and what
 * it takes (an amount, a percent, bounds), the first thing wrong with it in words, and its buttons
 * (up one place, remove).
 */
export function RuleFieldset({
  id,
  row,
  index,
  parsed,
  onChange,
  onMoveUp,
  onRemove,
}: {
  /** The form's id prefix: each input's id is `${id}-${row.key}-${field}`. */
  id: string;
  row: Row;
  index: number;
  parsed: ParsedRows;
  onChange: (change: Partial<Row>) => void;
  onMoveUp: () => void;
  onRemove: () => void;
}) {
  const t = useTranslations("revenue");
  const wrong = !parsed.ok && parsed.row === index ? parsed.field : null;
  const field = (name: keyof Row, label: string, hint?: string) => (
    <div>
      <label htmlFor={`${id}-${row.key}-${name}`} className="block text-sm font-medium">
        {label}
      </label>
      <input
        id={`${id}-${row.key}-${name}`}
        value={String(row[name])}
        inputMode={name === "merchants" ? "text" : "decimal"}
        onChange={(e) => onChange({ [name]: e.target.value })}
        aria-invalid={wrong === name ? true : undefined}
        aria-describedby={hint ? `${id}-${row.key}-${name}-hint` : undefined}
        className={inputClass()}
      />
      {hint ? (
        <p id={`${id}-${row.key}-${name}-hint`} className="mt-1 text-xs text-muted">
          {hint}
        </p>
      ) : null}
    </div>
  );
  return (
    <fieldset>
      <legend className="font-medium">{t("ruleNumber", { n: index + 1 })}</legend>
      <div className="mt-2 grid gap-3 sm:grid-cols-3">
        <div>
          <label htmlFor={`${id}-${row.key}-type`} className="block text-sm font-medium">
            {t("whenType")}
          </label>
          <select
            id={`${id}-${row.key}-type`}
            value={row.paymentType}
            onChange={(e) => onChange({ paymentType: e.target.value })}
            className={inputClass()}
          >
            <option value="">{t("any")}</option>
            {paymentTypes.map((p) => (
              <option key={p} value={p}>
                {t(`paymentTypes.${p}`)}
              </option>
            ))}
          </select>
        </div>
        <div>
          <label htmlFor={`${id}-${row.key}-present`} className="block text-sm font-medium">
            {t("whenPresent")}
          </label>
          <select
            id={`${id}-${row.key}-present`}
            value={row.cardPresent}
            onChange={(e) => onChange({ cardPresent: e.target.value as Row["cardPresent"] })}
            className={inputClass()}
          >
            <option value="">{t("any")}</option>
            <option value="yes">{t("presentYes")}</option>
            <option value="no">{t("presentNo")}</option>
          </select>
        </div>
        {field("merchants", t("whenMerchants"), t("whenMerchantsHint"))}
        {field("minAmount", t("whenMin"))}
        {field("maxAmount", t("whenMax"))}
      </div>
      <div className="mt-3 grid gap-3 sm:grid-cols-4">
        {field("amount", t("feeAmount"))}
        {field("percent", t("feePercent"), t("feePercentHint"))}
        {field("min", t("feeMin"))}
        {field("max", t("feeMax"))}
      </div>
      {wrong ? (
        <p className="mt-2 text-sm text-danger" role="alert">
          {t("ruleInvalid", { field: enumLabel(t, "fields", wrong) })}
        </p>
      ) : null}
      <div className="mt-3 flex flex-wrap gap-2">
        <button
          type="button"
          onClick={onMoveUp}
          disabled={index === 0}
          className="rounded border border-line px-3 py-1 disabled:opacity-50"
        >
          {t("moveUp", { n: index + 1 })}
        </button>
        <button type="button" onClick={onRemove} className="rounded border border-line px-3 py-1">
          {t("removeRule", { n: index + 1 })}
        </button>
      </div>
    </fieldset>
  );
}
