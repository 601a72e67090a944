// A residual's figures without a database (docs/reference.md section 19): each merchant's line from
// its month's sums, and the residual from its lines and what the month before carried in. Integer
// cents; the one rounding is each line's share.

import type { MerchantMonth } from "../../ledger/merchant-months";

/** A merchant's sums for the month, as the ledger adds them up (lib/ledger/merchant-months.ts). */
export type { MerchantMonth };

export type ResidualLineFigures = MerchantMonth & { margin: number; share: number; amount: number };

/** `margin` × `percent` ÷ 100, rounded half away from zero (a negative margin's share is as negative as a positive one's is positive). */
export function shareOf(margin: number, percent: number): number {
  const exact = BigInt(margin) * BigInt(percent);
  const magnitude = (2n * (exact < 0n ? -exact : exact) + 100n) / 200n;
  return Number(exact < 0n ? -magnitude : magnitude);
}

/** A merchant's line: its margin (fees less costs), the ISV's share of it, and with its platform fees what it adds to the residual. */
export function lineOf(month: MerchantMonth, percent: number): ResidualLineFigures {
  const margin = month.merchantFees - month.costs;
  const share = shareOf(margin, percent);
  return { ...month, margin, share, amount: share + month.platformFees };
}

/**
 * The residual: the sums of its lines (so its lines add up to it to the cent), the adjustments, and
 * the negative amount of the month before carried in. A positive amount is paid to the ISV
 * (`pending` until its payout is paid); 0 has nothing to pay (`paid`); a negative one is `carried`.
 */
export function residualOf(lines: readonly ResidualLineFigures[], carriedIn: number, adjustments = 0) {
  if (carriedIn > 0) throw new RangeError(`only a negative amount is carried in, not ${carriedIn}`);
  const sum = (value: (l: ResidualLineFigures) => number) => lines.reduce((total, l) => total + value(l), 0);
  const amount = sum((l) => l.amount) + adjustments + carriedIn;
  return {
    volume: sum((l) => l.volume),
    count: sum((l) => l.count),
    merchantFees: sum((l) => l.merchantFees),
    costs: sum((l) => l.costs),
    margin: sum((l) => l.margin),
    share: sum((l) => l.share),
    platformFees: sum((l) => l.platformFees),
    adjustments,
    carriedIn,
    amount,
    status: amount > 0 ? ("pending" as const) : amount === 0 ? ("paid" as const) : ("carried" as const),
  };
}
