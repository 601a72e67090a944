import type { MerchantRow, StatementFeeLine } from "../../db/schema";
import { divideHalfUp, dollarNumberToCents, feeToCentiCents } from "../../money";
import { merchantPricing } from "./merchant-pricing";

// The fees the platform charges at a month's end (its bill, lib/domain/statements/bill-month.ts), from the merchant's pricing (docs/reference.md
// section 13): the ACH activity fees (returns, reversals, days with ACH charges) and the monthly fees.
// lib/domain/statements/figures.ts counts the month's activity they are charged on.

export type Pricing = Pick<MerchantRow, "application" | "defaultCapabilities">;

/** A fee of the pricing (up to four decimals of a dollar) to the cent, half up; none is 0. */
const feeCents = (fee: string | undefined) => (fee ? Number(divideHalfUp(BigInt(feeToCentiCents(fee)), 100n)) : 0);

/**
 * The ACH activity fees of the month (docs/reference.md section 13): `return_fee_fixed` for each return,
 * `return_reversal_fee` for each reversed return, and `daily_batch_fee` for each day with ACH charges. Each to the cent, half up.
 */
export function achActivityFees(
  merchant: Pricing,
  achDays: number,
  returnCount: number,
  reversalCount: number,
): StatementFeeLine[] {
  const pricing = merchantPricing(merchant);
  if (!pricing.types.includes("ach")) return [];
  const options = pricing.options("ach");
  // Each fee times how often it applied, in the order the statement lists them; none when either is 0.
  const lines: [string, number, string | undefined][] = [
    ["ACH return fee", returnCount, options.return_fee_fixed],
    ["ACH return reversal fee", reversalCount, options.return_reversal_fee],
    ["ACH daily batch fee", achDays, options.daily_batch_fee],
  ];
  return lines.flatMap(([description, count, fee]) => {
    const each = feeCents(fee);
    return count > 0 && each > 0
      ? [{ kind: "ach_activity" as const, model: "ach" as const, description, count, amount: count * each }]
      : [];
  });
}

/** The monthly fees of docs/reference.md section 13, from the merchant's pricing and `fees.monthly`. */
export function monthlyFees(merchant: Pricing, processing: number): StatementFeeLine[] {
  const pricing = merchantPricing(merchant);
  const monthly =
    (
      merchant.application.fees as
        { monthly?: { minimum_processing_fee?: number; merchant_advance_service_charge?: number } } | undefined
    )?.monthly ?? {};
  const out: StatementFeeLine[] = [];
  if (pricing.types.includes("ach")) {
    const cents = feeCents(pricing.options("ach").monthly_fee);
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

/** What a merchant's month did that its month-end fees are charged on. */
export type MonthEndActivity = {
  /** Days with ACH charges. */
  achDays: number;
  returnCount: number;
  reversalCount: number;
  /** The month's processing fees, in cents (a minimum processing fee tops them up). */
  processingFees: number;
};

/** The month-end fees of a month (docs/reference.md section 13): its ACH activity fees, then its monthly fees. */
export function monthEndFeeLines(merchant: Pricing, activity: MonthEndActivity): StatementFeeLine[] {
  return [
    ...achActivityFees(merchant, activity.achDays, activity.returnCount, activity.reversalCount),
    ...monthlyFees(merchant, activity.processingFees),
  ];
}
