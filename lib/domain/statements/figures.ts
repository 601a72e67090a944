import {
  type ChargeRow,
  type DisputeRow,
  type MerchantRow,
  type RefundRow,
  type StatementBrand,
  type StatementDay,
  type StatementDispute,
  type StatementFeeLine,
  type StatementItem,
} from "../../db/schema";
import { invalid } from "../../errors";
import { divideHalfUp, dollarNumberToCents, feeToCentiCents } from "../../money";
import { merchantPricing } from "../fees/merchant-pricing";

// A statement's figures without a database (docs/reference.md sections 11 and 13): the month's
// bounds, and from the month's activity every total, fee line, brand, day and item.
// ./generate-statement.ts reads the activity and keeps the snapshot.

/** A calendar month `YYYY-MM` as the UTC instants it starts and ends at. */
export function periodRange(period: string) {
  const match = /^(\d{4})-(0[1-9]|1[0-2])$/.exec(period);
  if (!match) throw invalid("period", "period must be a month written YYYY-MM");
  const year = Number(match[1]);
  const month = Number(match[2]) - 1;
  return { start: new Date(Date.UTC(year, month, 1)), end: new Date(Date.UTC(year, month + 1, 1)) };
}

export const periodOf = (date: Date) => date.toISOString().slice(0, 7);

/** What happened in a merchant's month: charges captured, refunds made, ACH returns and their reversals. */
export type MonthActivity = {
  charges: ChargeRow[];
  refunds: RefundRow[];
  returns: ChargeRow[];
  reversals: ChargeRow[];
  /** Disputes opened in the month (their amounts and fees are taken) and won in it (their amounts come back). */
  disputesOpened?: DisputeRow[];
  disputesWon?: DisputeRow[];
};
type Pricing = Pick<MerchantRow, "application" | "defaultCapabilities">;

/**
 * The month's disputes as the statement lists them: each opened or won in the month, once, oldest
 * first, with whether its amount was taken in the month and whether it came back in it.
 */
function statementDisputes(opened: DisputeRow[], won: DisputeRow[]): StatementDispute[] {
  const byId = new Map<string, DisputeRow>();
  for (const d of [...opened, ...won]) byId.set(d.id, d);
  const wonIds = new Set(won.map((d) => d.id));
  const openedIds = new Set(opened.map((d) => d.id));
  return [...byId.values()]
    .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || a.id.localeCompare(b.id))
    .map((d) => ({
      id: d.id,
      charge_id: d.chargeId,
      created_at: d.createdAt.toISOString(),
      reason: d.reason,
      status: d.status,
      amount: d.amount,
      fee: d.fee,
      closed_at: d.closedAt?.toISOString() ?? null,
      opened_in_period: openedIds.has(d.id),
      won_in_period: wonIds.has(d.id),
    }));
}

/** The statement's figures for the month's activity, in cents. */
export function statementFigures(merchant: Pricing, month: MonthActivity) {
  const gross = month.charges.reduce((s, c) => s + c.amountCaptured, 0);
  const refunded = month.refunds.reduce((s, r) => s + r.amount, 0);
  const returnedAmount = (c: ChargeRow) => c.amountCaptured - c.amountRefunded;
  const returns = month.returns.reduce((s, c) => s + returnedAmount(c), 0);
  const reversals = month.reversals.reduce((s, c) => s + returnedAmount(c), 0);
  const processing = month.charges.reduce((s, c) => s + (c.fee ?? 0), 0);

  // Processing fees by model and line, as each charge's fee_details said.
  const byLine = new Map<string, StatementFeeLine>();
  for (const charge of month.charges) {
    for (const line of charge.feeDetails ?? []) {
      const key = `${line.model}|${line.description}`;
      const entry = byLine.get(key) ?? {
        kind: "processing" as const,
        model: line.model,
        description: line.description,
        count: 0,
        amount: 0,
      };
      entry.count += 1;
      entry.amount += line.amount;
      byLine.set(key, entry);
    }
  }
  const feeLines = [...byLine.values()];
  feeLines.push(...achActivityFees(merchant, month.charges, month.returns.length, month.reversals.length));
  const opened = month.disputesOpened ?? [];
  const won = month.disputesWon ?? [];
  if (opened.length > 0)
    feeLines.push({
      kind: "dispute",
      model: "dispute",
      description: "Dispute fee",
      count: opened.length,
      amount: opened.reduce((sum, d) => sum + d.fee, 0),
    });
  const disputed = opened.reduce((sum, d) => sum + d.amount, 0);
  const disputesWon = won.reduce((sum, d) => sum + d.amount, 0);
  feeLines.push(...monthlyFees(merchant, processing));
  const fees = feeLines.reduce((s, l) => s + l.amount, 0);

  const brands = new Map<string, StatementBrand>();
  for (const c of month.charges) {
    const brand = c.paymentMethod === "ach" ? "ach" : (c.cardBrand ?? "unknown");
    const entry = brands.get(brand) ?? { brand, count: 0, volume: 0 };
    entry.count += 1;
    entry.volume += c.amountCaptured;
    brands.set(brand, entry);
  }
  const days = new Map<string, StatementDay>();
  const day = (d: Date) => {
    const date = d.toISOString().slice(0, 10);
    const entry = days.get(date) ?? { date, charges: 0, volume: 0, refunds: 0, returns: 0, fees: 0 };
    days.set(date, entry);
    return entry;
  };
  for (const c of month.charges) {
    const d = day(c.capturedAt!);
    d.charges += 1;
    d.volume += c.amountCaptured;
    d.fees += c.fee ?? 0;
  }
  for (const r of month.refunds) day(r.createdAt).refunds += r.amount;
  // Returns apart from refunds: a bank's return is not the merchant's refund.
  for (const c of month.returns) day(c.returnedAt!).returns += returnedAmount(c);
  for (const c of month.reversals) day(c.returnReversedAt!).returns -= returnedAmount(c);

  const items: StatementItem[] = [
    ...month.charges.map((c) => ({
      kind: "charge" as const,
      id: c.id,
      charge_id: c.id,
      created_at: c.capturedAt!.toISOString(),
      amount: c.amountCaptured,
      fee: c.fee ?? 0,
      card_brand: c.paymentMethod === "ach" ? "ach" : c.cardBrand,
      card_last_4: c.paymentMethod === "ach" ? (c.ach?.last4 ?? null) : c.cardLast4,
      card_entry_method: c.cardEntryMethod,
    })),
    ...month.returns.map((c) => ({
      kind: "return" as const,
      id: c.id,
      charge_id: c.id,
      created_at: c.returnedAt!.toISOString(),
      amount: returnedAmount(c),
      fee: 0,
      card_brand: "ach",
      card_last_4: c.ach?.last4 ?? null,
      card_entry_method: null,
    })),
    ...month.reversals.map((c) => ({
      kind: "return_reversal" as const,
      id: c.id,
      charge_id: c.id,
      created_at: c.returnReversedAt!.toISOString(),
      amount: returnedAmount(c),
      fee: 0,
      card_brand: "ach",
      card_last_4: c.ach?.last4 ?? null,
      card_entry_method: null,
    })),
    ...month.refunds.map((r) => ({
      kind: "refund" as const,
      id: r.id,
      charge_id: r.chargeId,
      created_at: r.createdAt.toISOString(),
      amount: r.amount,
      fee: 0,
      card_brand: null,
      card_last_4: null,
      card_entry_method: null,
    })),
  ].sort((a, b) => a.created_at.localeCompare(b.created_at) || a.id.localeCompare(b.id));

  return {
    chargeCount: month.charges.length,
    refundCount: month.refunds.length,
    grossVolume: gross,
    refunds: refunded,
    returnCount: month.returns.length,
    returns,
    reversalCount: month.reversals.length,
    reversals,
    fees,
    net: gross - refunded - returns + reversals - fees - disputed + disputesWon,
    feeLines,
    disputes: statementDisputes(opened, won),
    cardBrands: [...brands.values()].sort((a, b) => b.volume - a.volume || a.brand.localeCompare(b.brand)),
    dailyTotals: [...days.values()].sort((a, b) => a.date.localeCompare(b.date)),
    items,
  };
}

/**
 * The ACH activity fees of the month (docs/reference.md section 13): `return_fee_fixed` for each return,
 * `return_reversal_fee` for each reversed return, and `daily_batch_fee` for each day with ACH charges. Each to the cent, half up.
 */
function achActivityFees(
  merchant: Pricing,
  monthCharges: ChargeRow[],
  returnCount: number,
  reversalCount: number,
): StatementFeeLine[] {
  const pricing = merchantPricing(merchant);
  if (!pricing.types.includes("ach")) return [];
  const options = pricing.options("ach");
  const cents = (fee: string | undefined) => (fee ? Number(divideHalfUp(BigInt(feeToCentiCents(fee)), 100n)) : 0);
  const out: StatementFeeLine[] = [];
  const returnFee = cents(options.return_fee_fixed);
  if (returnCount > 0 && returnFee > 0)
    out.push({
      kind: "ach_activity",
      model: "ach",
      description: "ACH return fee",
      count: returnCount,
      amount: returnCount * returnFee,
    });
  const reversalFee = cents(options.return_reversal_fee);
  if (reversalCount > 0 && reversalFee > 0)
    out.push({
      kind: "ach_activity",
      model: "ach",
      description: "ACH return reversal fee",
      count: reversalCount,
      amount: reversalCount * reversalFee,
    });
  const achDays = new Set(
    monthCharges.filter((c) => c.paymentMethod === "ach").map((c) => c.capturedAt!.toISOString().slice(0, 10)),
  ).size;
  const batchFee = cents(options.daily_batch_fee);
  if (achDays > 0 && batchFee > 0)
    out.push({
      kind: "ach_activity",
      model: "ach",
      description: "ACH daily batch fee",
      count: achDays,
      amount: achDays * batchFee,
    });
  return out;
}

/** The monthly fees of docs/reference.md section 13, from the merchant's pricing and `fees.monthly`. */
function monthlyFees(merchant: Pricing, processing: number): StatementFeeLine[] {
  const pricing = merchantPricing(merchant);
  const monthly =
    (
      merchant.application.fees as
        { monthly?: { minimum_processing_fee?: number; merchant_advance_service_charge?: number } } | undefined
    )?.monthly ?? {};
  const out: StatementFeeLine[] = [];
  if (pricing.types.includes("ach")) {
    const fee = pricing.options("ach").monthly_fee;
    // Up to four decimals of a dollar: to the cent, half up.
    const cents = fee ? Number(divideHalfUp(BigInt(feeToCentiCents(fee)), 100n)) : 0;
    if (cents > 0) out.push({ kind: "monthly", model: "ach", description: "ACH monthly fee", count: 1, amount: cents });
  }
  if (pricing.cardModel === "flat_rate" && monthly.minimum_processing_fee !== undefined) {
    const minimum = dollarNumberToCents(monthly.minimum_processing_fee);
    if (processing < minimum)
      out.push({
        kind: "monthly",
        model: "flat_rate",
        description: "Minimum processing fee top-up",
        count: 1,
        amount: minimum - processing,
      });
  }
  if (pricing.cardModel === "cash_discount" && monthly.merchant_advance_service_charge !== undefined) {
    const cents = dollarNumberToCents(monthly.merchant_advance_service_charge);
    if (cents > 0)
      out.push({
        kind: "monthly",
        model: "cash_discount",
        description: "Merchant advance service charge",
        count: 1,
        amount: cents,
      });
  }
  return out;
}
