import { activityPostingTypes, type PostingType } from "../schemas/ledger-values";

export type TakenPosting = { type: PostingType; sourceId: string; amount: number; fee: number; net: number };

/**
 * The postings of a settlement that its figures count: a return and its reversal of one charge
 * taken together (its bank reversed the return before any settlement took it back) cancel out and
 * are left out of the counts and the lines; the platform's own moves and payouts are not lines.
 */
export function countedPostings<T extends TakenPosting>(taken: readonly T[]): T[] {
  const returned = new Set(taken.filter((p) => p.type === "ach_return").map((p) => p.sourceId));
  const pairs = new Set(
    taken.filter((p) => p.type === "ach_return_reversal" && returned.has(p.sourceId)).map((p) => p.sourceId),
  );
  const lineTypes: PostingType[] = [...activityPostingTypes, "monthly_fee"];
  return taken.filter(
    (p) =>
      lineTypes.includes(p.type) &&
      !((p.type === "ach_return" || p.type === "ach_return_reversal") && pairs.has(p.sourceId)),
  );
}

/**
 * A settlement's figures (docs/reference.md section 13), read from the ledger postings it took
 * (section 18): the charges (captured, and their fees), the refunds, the ACH returns taken back and
 * the reversed returns paid back, the disputes' amounts and fees, the won disputes' amounts, the
 * month-end fees of the statements made since (in `fees`), the ISV's platform fees less what refunds
 * gave back of them (section 19); its net
 * is the sum of their nets and the negative net carried in from the settlement before (<= 0).
 */
export function settlementFigures(taken: readonly TakenPosting[], carriedIn = 0) {
  const counted = countedPostings(taken);
  const of = (type: PostingType) => counted.filter((p) => p.type === type);
  const sum = (rows: TakenPosting[], value: (p: TakenPosting) => number) => rows.reduce((t, p) => t + value(p), 0);
  // What was taken, as a positive figure (0 - x: never a negative zero).
  const takenOf = (rows: TakenPosting[]) => 0 - sum(rows, (p) => p.amount);
  const charges = of("charge");
  const refunds = of("refund");
  const returns = of("ach_return");
  const reversals = of("ach_return_reversal");
  const disputes = of("dispute");
  const disputeFees = of("dispute_fee");
  const won = of("dispute_won");
  const platformFees = of("platform_fee");
  const platformFeeRefunds = of("platform_fee_refund");
  return {
    chargeCount: charges.length,
    gross: sum(charges, (p) => p.amount),
    // The charges' fees, and the month-end fees a final statement took.
    fees: sum(charges, (p) => p.fee) + takenOf(of("monthly_fee")),
    refundCount: refunds.length,
    refunds: takenOf(refunds),
    returnCount: returns.length,
    returns: takenOf(returns),
    reversalCount: reversals.length,
    reversals: sum(reversals, (p) => p.amount),
    disputeCount: disputes.length,
    disputes: takenOf(disputes),
    disputeFees: takenOf(disputeFees),
    disputeWonCount: won.length,
    disputesWon: sum(won, (p) => p.amount),
    // The ISV's platform fees, less what the refunds gave back of them.
    platformFees: takenOf(platformFees) - sum(platformFeeRefunds, (p) => p.amount),
    carriedIn,
    net: sum(counted, (p) => p.net) + carriedIn,
  };
}
