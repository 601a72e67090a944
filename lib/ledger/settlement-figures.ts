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
 * What a set of postings adds up to, by kind: the one definition of each figure for a settlement
 * (what it took) and a statement (its month's postings, lib/domain/statements/figures.ts). Taken
 * amounts are positive figures (a refund of 10.00 is `refunds: 1000`); `net` is the sum of every
 * posting's net; `processingFees` the charges' fees; `monthEndFees` the month-end fees taken.
 */
export function postingSums(postings: readonly TakenPosting[]) {
  const of = (type: PostingType) => postings.filter((p) => p.type === type);
  const sum = (rows: readonly TakenPosting[], value: (p: TakenPosting) => number) =>
    rows.reduce((t, p) => t + value(p), 0);
  // What was taken, as a positive figure (0 - x: never a negative zero).
  const takenOf = (rows: TakenPosting[]) => 0 - sum(rows, (p) => p.amount);
  const charges = of("charge");
  const refunds = of("refund");
  const returns = of("ach_return");
  const reversals = of("ach_return_reversal");
  const disputes = of("dispute");
  const won = of("dispute_won");
  return {
    chargeCount: charges.length,
    gross: sum(charges, (p) => p.amount),
    processingFees: sum(charges, (p) => p.fee),
    refundCount: refunds.length,
    refunds: takenOf(refunds),
    returnCount: returns.length,
    returns: takenOf(returns),
    reversalCount: reversals.length,
    reversals: sum(reversals, (p) => p.amount),
    disputeCount: disputes.length,
    disputes: takenOf(disputes),
    disputeFees: takenOf(of("dispute_fee")),
    disputeWonCount: won.length,
    disputesWon: sum(won, (p) => p.amount),
    // The ISV's platform fees, less what the refunds gave back of them.
    platformFees: takenOf(of("platform_fee")) - sum(of("platform_fee_refund"), (p) => p.amount),
    monthEndFees: takenOf(of("monthly_fee")),
    net: sum(postings, (p) => p.net),
  };
}

/**
 * A settlement's figures (docs/reference.md section 13), read from the ledger postings it took
 * (section 18, `postingSums` of its counted postings): the charges (captured, and their fees), the
 * refunds, the ACH returns taken back and the reversed returns paid back, the disputes' amounts and
 * fees, the won disputes' amounts, the month-end fees of the bills made since (in `fees`), the
 * ISV's platform fees less what refunds gave back of them (section 19); its net is the sum of their
 * nets and the negative net carried in from the settlement before (<= 0).
 */
export function settlementFigures(taken: readonly TakenPosting[], carriedIn = 0) {
  const { processingFees, monthEndFees, net, ...sums } = postingSums(countedPostings(taken));
  return {
    chargeCount: sums.chargeCount,
    gross: sums.gross,
    fees: processingFees + monthEndFees,
    refundCount: sums.refundCount,
    refunds: sums.refunds,
    returnCount: sums.returnCount,
    returns: sums.returns,
    reversalCount: sums.reversalCount,
    reversals: sums.reversals,
    disputeCount: sums.disputeCount,
    disputes: sums.disputes,
    disputeFees: sums.disputeFees,
    disputeWonCount: sums.disputeWonCount,
    disputesWon: sums.disputesWon,
    platformFees: sums.platformFees,
    carriedIn,
    net: net + carriedIn,
  };
}

export type SettlementFigures = ReturnType<typeof settlementFigures>;

/** One line of a settlement's summary: what it is, how many, and its signed amount (a take is negative). */
export type SummaryLine = {
  key:
    | "gross"
    | "refunds"
    | "returns"
    | "reversals"
    | "fees"
    | "platform_fees"
    | "disputes"
    | "disputes_won"
    | "carried_in";
  count: number | null;
  amount: number;
};

/**
 * A settlement's figures as the ordered, signed lines that add up to its net: the one list the
 * settlements table, the settlement page and the home show, so no screen adds them up its own way.
 * The gross, refunds and fees lines are always there; the others only when the settlement has them.
 */
export function summaryLines(f: SettlementFigures): SummaryLine[] {
  const lines: (SummaryLine & { always?: boolean })[] = [
    { key: "gross", count: f.chargeCount, amount: f.gross, always: true },
    { key: "refunds", count: f.refundCount, amount: 0 - f.refunds, always: true },
    { key: "returns", count: f.returnCount, amount: 0 - f.returns },
    { key: "reversals", count: f.reversalCount, amount: f.reversals },
    { key: "fees", count: null, amount: 0 - f.fees, always: true },
    { key: "platform_fees", count: null, amount: 0 - f.platformFees },
    // A dispute takes its amount and its fee together; a won one gives the amount back.
    { key: "disputes", count: f.disputeCount, amount: 0 - (f.disputes + f.disputeFees) },
    { key: "disputes_won", count: f.disputeWonCount, amount: f.disputesWon },
    { key: "carried_in", count: null, amount: f.carriedIn },
  ];
  return lines
    .filter((l) => l.always || l.amount !== 0 || (l.count ?? 0) > 0)
    .map(({ key, count, amount }) => ({ key, count, amount }));
}

/** A summary line's amount by its key (0 when the settlement has none): a table's fixed columns. */
export function lineAmount(lines: readonly SummaryLine[], key: SummaryLine["key"]): number {
  return lines.find((l) => l.key === key)?.amount ?? 0;
}
