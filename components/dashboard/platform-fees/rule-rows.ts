import { typedDollarsToCents } from "@/lib/money";
import { type PlatformFeeRule, platformFeeRulesSchema } from "@/lib/schemas/platform-fees";

// The platform fee rules as the form's rows (text a person types: dollars, a percent, merchant ids)
// and back: each rule a row, and the rows as the API's rules or the first row and field that is wrong.

export type Row = {
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

export function rowOf(rule: PlatformFeeRule, key: number): Row {
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
export function rulesOf(
  rows: Row[],
): { ok: true; rules: PlatformFeeRule[] } | { ok: false; row: number; field: string } {
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

/** A new rule's row: every field empty (any payment, no fee yet). */
export function emptyRow(key: number): Row {
  return {
    key,
    paymentType: "",
    cardPresent: "",
    minAmount: "",
    maxAmount: "",
    merchants: "",
    amount: "",
    percent: "",
    min: "",
    max: "",
  };
}

/** What `rulesOf` answers: the rules, or the row and field of the first thing wrong. */
export type ParsedRows = ReturnType<typeof rulesOf>;
