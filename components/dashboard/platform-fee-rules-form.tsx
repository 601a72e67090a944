"use client";
import { useRouter } from "next/navigation";
import { useLocale, useTranslations } from "next-intl";
import { useId, useMemo, useState, useTransition } from "react";

import { saveSettingsAction } from "@/lib/actions/dashboard";
import { choosePlatformFee } from "@/lib/domain/fees/platform-fee";
import { enumLabel } from "@/lib/i18n/dynamic";
import { intlLocale } from "@/lib/i18n/locales";
import { formatCents, typedDollarsToCents } from "@/lib/money";
import { paymentTypes } from "@/lib/schemas/payment-values";
import {
  platformFeeRefundPolicies,
  type PlatformFeeRefundPolicy,
  type PlatformFeeRule,
  platformFeeRulesSchema,
} from "@/lib/schemas/platform-fees";

// The account's platform fee rules (docs/reference.md section 19), edited as rows a person reads:
// when (payment type, card present, amounts, merchants) and what (an amount, a percent, bounds), in
// order, the first match winning; and a preview of the fee a payment of a given amount and type
// would pay under the rules as typed, before they are saved.

type Row = {
  key: number;
  paymentType: string;
  cardPresent: "" | "yes" | "no";
  minAmount: string;
  maxAmount: string;
  merchants: string;
  amount: string;
  percent: string;
  min: string;
  max: string;
};

const dollars = (cents: number | undefined) =>
  cents === undefined ? "" : `${Math.trunc(cents / 100)}.${String(cents % 100).padStart(2, "0")}`;

function rowOf(rule: PlatformFeeRule, key: number): Row {
  return {
    key,
    paymentType: rule.match.payment_type ?? "",
    cardPresent: rule.match.card_present === undefined ? "" : rule.match.card_present ? "yes" : "no",
    minAmount: dollars(rule.match.min_amount),
    maxAmount: dollars(rule.match.max_amount),
    merchants: (rule.match.merchant_ids ?? []).join(", "),
    amount: dollars(rule.fee.amount),
    percent: rule.fee.percent === undefined ? "" : String(rule.fee.percent),
    min: dollars(rule.fee.min),
    max: dollars(rule.fee.max),
  };
}

/** The rows as the API's rules, or the first thing wrong with them (which row, which field). */
function rulesOf(rows: Row[]): { ok: true; rules: PlatformFeeRule[] } | { ok: false; row: number; field: string } {
  const rules: PlatformFeeRule[] = [];
  for (const [i, r] of rows.entries()) {
    const cents = (field: keyof Row) => {
      const text = String(r[field]).trim();
      if (text === "") return { ok: true as const, value: undefined };
      const value = typedDollarsToCents(text.replace(/^\$/, ""));
      return value === null ? { ok: false as const, field } : { ok: true as const, value };
    };
    const parts = (["minAmount", "maxAmount", "amount", "min", "max"] as const).map((f) => cents(f));
    const bad = parts.find((p) => !p.ok);
    if (bad && !bad.ok) return { ok: false, row: i, field: bad.field };
    const [minAmount, maxAmount, amount, min, max] = parts.map((p) => (p.ok ? p.value : undefined));
    const percentText = r.percent.trim().replace(",", ".");
    const percent = percentText === "" ? undefined : Number(percentText);
    if (percent !== undefined && !Number.isFinite(percent)) return { ok: false, row: i, field: "percent" };
    const merchantIds = r.merchants
      .split(/[\s,]+/)
      .map((m) => m.trim())
      .filter(Boolean);
    rules.push({
      match: {
        ...(r.paymentType ? { payment_type: r.paymentType as PlatformFeeRule["match"]["payment_type"] } : {}),
        ...(r.cardPresent ? { card_present: r.cardPresent === "yes" } : {}),
        ...(minAmount !== undefined ? { min_amount: minAmount } : {}),
        ...(maxAmount !== undefined ? { max_amount: maxAmount } : {}),
        ...(merchantIds.length ? { merchant_ids: merchantIds } : {}),
      },
      fee: {
        ...(amount !== undefined ? { amount } : {}),
        ...(percent !== undefined ? { percent } : {}),
        ...(min !== undefined ? { min } : {}),
        ...(max !== undefined ? { max } : {}),
      },
    });
  }
  const parsed = platformFeeRulesSchema.safeParse(rules);
  if (!parsed.success) {
    const path = parsed.error.issues[0]?.path ?? [];
    return { ok: false, row: Number(path[0] ?? 0), field: String(path.at(-1) ?? "fee") };
  }
  return { ok: true, rules: parsed.data };
}

export function PlatformFeeRulesForm({ rules, refund }: { rules: PlatformFeeRule[]; refund: PlatformFeeRefundPolicy }) {
  const t = useTranslations("revenue");
  const locale = intlLocale(useLocale());
  const router = useRouter();
  const id = useId();
  const [rows, setRows] = useState<Row[]>(() => rules.map(rowOf));
  const [nextKey, setNextKey] = useState(rules.length);
  const [policy, setPolicy] = useState<PlatformFeeRefundPolicy>(refund);
  const [previewAmount, setPreviewAmount] = useState("100.00");
  const [previewType, setPreviewType] = useState<(typeof paymentTypes)[number]>("SCAN_TO_PAY");
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);
  const [pending, start] = useTransition();
  const parsed = useMemo(() => rulesOf(rows), [rows]);
  const money = (cents: number) => formatCents(cents, locale);

  const set = (key: number, change: Partial<Row>) =>
    setRows((all) => all.map((r) => (r.key === key ? { ...r, ...change } : r)));
  const move = (index: number, by: -1 | 1) =>
    setRows((all) => {
      const next = [...all];
      const [row] = next.splice(index, 1);
      if (row) next.splice(index + by, 0, row);
      return next;
    });

  const previewCents = typedDollarsToCents(previewAmount.replace(/^\$/, ""));
  const preview =
    parsed.ok && previewCents !== null
      ? choosePlatformFee(undefined, parsed.rules, { paymentType: previewType, total: previewCents, merchantId: "" })
      : null;

  const field = (row: Row, index: number, name: keyof Row, label: string, hint?: string) => (
    <div>
      <label htmlFor={`${id}-${row.key}-${name}`} className="block text-sm font-medium">
        {label}
      </label>
      <input
        id={`${id}-${row.key}-${name}`}
        value={String(row[name])}
        inputMode={name === "merchants" ? "text" : "decimal"}
        onChange={(e) => set(row.key, { [name]: e.target.value } as Partial<Row>)}
        aria-invalid={!parsed.ok && parsed.row === index && parsed.field === name ? true : undefined}
        aria-describedby={hint ? `${id}-${row.key}-${name}-hint` : undefined}
        className="mt-1 block w-full rounded-lg border border-line bg-card px-3 py-2"
      />
      {hint ? (
        <p id={`${id}-${row.key}-${name}-hint`} className="mt-1 text-xs text-muted">
          {hint}
        </p>
      ) : null}
    </div>
  );

  const save = () =>
    start(async () => {
      if (!parsed.ok) return;
      const result = await saveSettingsAction({
        settings: { platform_fee_rules: parsed.rules, platform_fee_refund: policy },
      });
      setMessage(
        result.ok
          ? { ok: true, text: t("rulesSaved") }
          : { ok: false, text: result.errors.map((e) => `${e.param}: ${e.message}`).join("; ") },
      );
      if (result.ok) router.refresh();
    });

  return (
    <section
      aria-labelledby={`${id}-title`}
      className="rounded-lg border border-line bg-card p-4"
      data-testid="fee-rules"
    >
      <h2 id={`${id}-title`} className="text-lg font-semibold">
        {t("rulesTitle")}
      </h2>
      <p className="mt-1 text-sm text-muted">{t.rich("rulesIntro", { code: (chunks) => <code>{chunks}</code> })}</p>
      {rows.length === 0 ? <p className="mt-3">{t("noRules")}</p> : null}
      <ol className="mt-3 space-y-4">
        {rows.map((row, index) => (
          <li key={row.key} className="rounded-lg border border-line p-3" data-testid={`rule-${index + 1}`}>
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
                    onChange={(e) => set(row.key, { paymentType: e.target.value })}
                    className="mt-1 block w-full rounded-lg border border-line bg-card px-3 py-2"
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
                    onChange={(e) => set(row.key, { cardPresent: e.target.value as Row["cardPresent"] })}
                    className="mt-1 block w-full rounded-lg border border-line bg-card px-3 py-2"
                  >
                    <option value="">{t("any")}</option>
                    <option value="yes">{t("presentYes")}</option>
                    <option value="no">{t("presentNo")}</option>
                  </select>
                </div>
                {field(row, index, "merchants", t("whenMerchants"), t("whenMerchantsHint"))}
                {field(row, index, "minAmount", t("whenMin"))}
                {field(row, index, "maxAmount", t("whenMax"))}
              </div>
              <div className="mt-3 grid gap-3 sm:grid-cols-4">
                {field(row, index, "amount", t("feeAmount"))}
                {field(row, index, "percent", t("feePercent"), t("feePercentHint"))}
                {field(row, index, "min", t("feeMin"))}
                {field(row, index, "max", t("feeMax"))}
              </div>
              {!parsed.ok && parsed.row === index ? (
                <p className="mt-2 text-sm text-danger" role="alert">
                  {t("ruleInvalid", { field: enumLabel(t, "fields", parsed.field) })}
                </p>
              ) : null}
              <div className="mt-3 flex flex-wrap gap-2">
                <button
                  type="button"
                  onClick={() => move(index, -1)}
                  disabled={index === 0}
                  className="rounded border border-line px-3 py-1 disabled:opacity-50"
                >
                  {t("moveUp", { n: index + 1 })}
                </button>
                <button
                  type="button"
                  onClick={() => setRows((all) => all.filter((r) => r.key !== row.key))}
                  className="rounded border border-line px-3 py-1"
                >
                  {t("removeRule", { n: index + 1 })}
                </button>
              </div>
            </fieldset>
          </li>
        ))}
      </ol>
      <button
        type="button"
        onClick={() => {
          setRows((all) => [
            ...all,
            {
              key: nextKey,
              paymentType: "",
              cardPresent: "",
              minAmount: "",
              maxAmount: "",
              merchants: "",
              amount: "",
              percent: "",
              min: "",
              max: "",
            },
          ]);
          setNextKey((k) => k + 1);
        }}
        className="mt-3 rounded border border-line px-3 py-1"
      >
        {t("addRule")}
      </button>

      <div className="mt-4">
        <label htmlFor={`${id}-refund`} className="block text-sm font-medium">
          {t("refundPolicy")}
        </label>
        <select
          id={`${id}-refund`}
          value={policy}
          onChange={(e) => setPolicy(e.target.value as PlatformFeeRefundPolicy)}
          className="mt-1 block w-full rounded-lg border border-line bg-card px-3 py-2 sm:w-auto"
        >
          {platformFeeRefundPolicies.map((p) => (
            <option key={p} value={p}>
              {t(`refundPolicies.${p}`)}
            </option>
          ))}
        </select>
      </div>

      <div className="mt-4 rounded-lg bg-surface p-3" data-testid="fee-preview">
        <h3 className="font-medium">{t("previewTitle")}</h3>
        <div className="mt-2 grid gap-3 sm:grid-cols-2">
          <div>
            <label htmlFor={`${id}-preview-amount`} className="block text-sm font-medium">
              {t("previewAmount")}
            </label>
            <input
              id={`${id}-preview-amount`}
              value={previewAmount}
              inputMode="decimal"
              onChange={(e) => setPreviewAmount(e.target.value)}
              className="mt-1 block w-full rounded-lg border border-line bg-card px-3 py-2"
            />
          </div>
          <div>
            <label htmlFor={`${id}-preview-type`} className="block text-sm font-medium">
              {t("previewType")}
            </label>
            <select
              id={`${id}-preview-type`}
              value={previewType}
              onChange={(e) => setPreviewType(e.target.value as (typeof paymentTypes)[number])}
              className="mt-1 block w-full rounded-lg border border-line bg-card px-3 py-2"
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
          {!parsed.ok || previewCents === null
            ? t("previewUnavailable")
            : preview
              ? t("previewFee", {
                  fee: money(preview.amount),
                  rule: preview.source.kind === "rule" ? preview.source.index + 1 : 0,
                })
              : t("previewNone")}
        </p>
      </div>

      <div className="mt-4 flex flex-wrap items-center gap-3">
        <button
          type="button"
          onClick={save}
          disabled={pending || !parsed.ok}
          className="rounded-lg bg-primary px-4 py-2 font-medium text-on-primary disabled:opacity-50"
        >
          {t("saveRules")}
        </button>
        {message ? (
          <p role="status" className={message.ok ? "" : "text-danger"} data-testid="fee-rules-message">
            {message.text}
          </p>
        ) : null}
      </div>
    </section>
  );
}
