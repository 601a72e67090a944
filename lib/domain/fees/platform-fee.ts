import { type Cents, percentOf, percentToPpm } from "../../money";
import { type PaymentType } from "../../schemas/payment-values";
import {
  type PlatformFeeInput,
  type PlatformFeeRefundPolicy,
  type PlatformFeeRule,
  type PlatformFeeSpec,
} from "../../schemas/platform-fees";

// The ISV's platform fee (docs/reference.md section 19): pure rules on integers. A percent is read
// from its decimal text (2.5 → 25,000 parts per million), so no float ever multiplies money.

export type PlatformFeeContext = { paymentType: PaymentType; total: Cents; merchantId: string };

/** A terminal reads the card; every other payment is typed or paid online (card not present). */
export const cardPresentFor = (paymentType: PaymentType) => paymentType === "TERMINAL";

/** A spec's fee on `total`: its amount plus its percent of the total (half up, once), within its bounds. */
export function feeOfSpec(spec: PlatformFeeSpec | PlatformFeeInput, total: Cents): Cents {
  const amount = "amount" in spec && spec.amount !== undefined ? spec.amount : 0;
  const percent =
    "percent" in spec && spec.percent !== undefined ? percentOf(total, percentToPpm(String(spec.percent))) : 0;
  let fee = amount + percent;
  if ("min" in spec && spec.min !== undefined) fee = Math.max(fee, spec.min);
  if ("max" in spec && spec.max !== undefined) fee = Math.min(fee, spec.max);
  return fee;
}

/** Whether a rule's `match` fits the payment: every field it gives must fit. */
export function ruleMatches(match: PlatformFeeRule["match"], context: PlatformFeeContext): boolean {
  if (match.payment_type !== undefined && match.payment_type !== context.paymentType) return false;
  if (match.card_present !== undefined && match.card_present !== cardPresentFor(context.paymentType)) return false;
  if (match.min_amount !== undefined && context.total < match.min_amount) return false;
  if (match.max_amount !== undefined && context.total > match.max_amount) return false;
  if (match.merchant_ids !== undefined && !match.merchant_ids.includes(context.merchantId)) return false;
  return true;
}

export type ChosenPlatformFee = {
  amount: Cents;
  /** Where it came from: the payment's own `platform_fee`, or the account's rule at this index. */
  source: { kind: "payment" } | { kind: "rule"; index: number };
};

/**
 * The payment's platform fee: the one its creation gave, else the first of the account's rules that
 * matches; null when neither applies (or the fee is 0).
 */
export function choosePlatformFee(
  given: PlatformFeeInput | undefined,
  rules: readonly PlatformFeeRule[],
  context: PlatformFeeContext,
): ChosenPlatformFee | null {
  if (given) {
    const amount = feeOfSpec(given, context.total);
    return amount > 0 ? { amount, source: { kind: "payment" } } : null;
  }
  const index = rules.findIndex((rule) => ruleMatches(rule.match, context));
  const rule = rules[index];
  if (!rule) return null;
  const amount = feeOfSpec(rule.fee, context.total);
  return amount > 0 ? { amount, source: { kind: "rule", index } } : null;
}

/**
 * What a refund gives back of the platform fee. Pro rata, on the running total: after it, the
 * refunds together have given back round(fee × refunded ÷ captured) (half up), so partial refunds
 * add up to the whole fee exactly when the charge is wholly refunded; `keep`: nothing.
 */
export function platformFeeRefundOf(
  policy: PlatformFeeRefundPolicy,
  charge: { captured: Cents; platformFee: Cents; platformFeeRefunded: Cents; refundedBefore: Cents },
  refund: Cents,
): Cents {
  if (policy === "keep" || charge.platformFee === 0 || charge.captured === 0) return 0;
  const refundedAfter = Math.min(charge.refundedBefore + refund, charge.captured);
  const owedAfter =
    refundedAfter === charge.captured
      ? charge.platformFee
      : Number(
          (BigInt(charge.platformFee) * BigInt(refundedAfter) * 2n + BigInt(charge.captured)) /
            (2n * BigInt(charge.captured)),
        );
  return Math.max(0, Math.min(owedAfter, charge.platformFee) - charge.platformFeeRefunded);
}
