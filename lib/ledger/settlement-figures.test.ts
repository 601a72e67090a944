import { describe, expect, test } from "vitest";

import { activityPostingTypes } from "../schemas/ledger-values";
import { lineAmount, postingSums, settlementFigures, summaryLines, type TakenPosting } from "./settlement-figures";

// A settlement's figures from the postings it took, hand-worked: tests/api/ledger.test.ts runs the
// same through four nights on a real database, and tests/api/ledger-properties/ random ones.

const p = (type: TakenPosting["type"], sourceId: string, amount: number, fee = 0): TakenPosting => ({
  type,
  sourceId,
  amount,
  fee,
  net: amount - fee,
});

describe("settlement figures from the ledger", () => {
  test("charges less fees, refunds, returns (what was still held), reversals (paid back) and the ISV's platform fees less what refunds gave back", () => {
    expect(
      settlementFigures([
        p("charge", "ch_1", 10_000, 320),
        p("charge", "ch_2", 2_500, 38),
        p("charge", "ch_3", 700),
        p("refund", "re_1", -1_000),
        p("refund", "re_2", -250),
        p("ach_return", "ch_4", -2_000),
        p("ach_return", "ch_5", -4_000),
        p("ach_return_reversal", "ch_6", 1_500),
        p("platform_fee", "ch_1", -300),
        p("platform_fee", "ch_2", -75),
        p("platform_fee_refund", "re_1", 30),
      ]),
    ).toEqual({
      chargeCount: 3,
      gross: 13_200,
      fees: 358,
      refundCount: 2,
      refunds: 1_250,
      returnCount: 2,
      returns: 6_000,
      reversalCount: 1,
      reversals: 1_500,
      disputeCount: 0,
      disputes: 0,
      disputeFees: 0,
      disputeWonCount: 0,
      disputesWon: 0,
      platformFees: 345,
      carriedIn: 0,
      net: 13_200 - 1_250 - 6_000 + 1_500 - 358 - 345,
    });
  });

  test("only a refund and a negative net carried in: the net is their sum", () => {
    expect(settlementFigures([p("refund", "re_1", -233)], -1_000)).toMatchObject({
      refundCount: 1,
      refunds: 233,
      carriedIn: -1_000,
      net: -1_233,
    });
  });

  test("a dispute takes its amount and fee; a won one gives the amount back, not the fee", () => {
    expect(
      settlementFigures([
        p("charge", "ch_1", 30_000, 900),
        p("dispute", "dp_1", -9_000),
        p("dispute_fee", "dp_1", -1_500),
        p("dispute_won", "dp_2", 4_000),
      ]),
    ).toMatchObject({
      disputeCount: 1,
      disputes: 9_000,
      disputeFees: 1_500,
      disputeWonCount: 1,
      disputesWon: 4_000,
      net: 30_000 - 900 - 9_000 - 1_500 + 4_000,
    });
  });

  test("a return its bank reversed before any settlement took it back is in neither count (its two lines cancel)", () => {
    const figures = settlementFigures([
      p("charge", "ch_1", 5_000, 100),
      p("ach_return", "ch_2", -2_500),
      p("ach_return_reversal", "ch_2", 2_500),
      p("ach_return", "ch_3", -700),
    ]);
    expect(figures).toMatchObject({ returnCount: 1, returns: 700, reversalCount: 0, reversals: 0, net: 4_900 - 700 });
  });

  test("the platform's own moves and payouts are not counted", () => {
    expect(
      settlementFigures([p("charge", "ch_1", 1_000, 59), p("settlement", "stl_1", 941), p("payout", "po_1", -941)]).net,
    ).toBe(941);
  });
});

describe("postingSums: each figure defined once, for settlements and statements", () => {
  test("every kind summed apart, taken amounts positive, the net every posting's net (the platform's own moves included)", () => {
    expect(
      postingSums([
        p("charge", "ch_1", 10_000, 320),
        p("charge", "ch_2", 700),
        p("refund", "re_1", -1_000),
        p("platform_fee", "ch_1", -300),
        p("platform_fee_refund", "re_1", 30),
        p("ach_return", "ch_3", -2_000),
        p("ach_return_reversal", "ch_3", 2_000),
        p("dispute", "dp_1", -900),
        p("dispute_fee", "dp_1", -1_500),
        p("dispute_won", "dp_1", 900),
        p("monthly_fee", "stmt_1", -995),
      ]),
    ).toEqual({
      chargeCount: 2,
      gross: 10_700,
      processingFees: 320,
      refundCount: 1,
      refunds: 1_000,
      // A statement counts a return and its reversal apart (a settlement leaves the pair out first).
      returnCount: 1,
      returns: 2_000,
      reversalCount: 1,
      reversals: 2_000,
      disputeCount: 1,
      disputes: 900,
      disputeFees: 1_500,
      disputeWonCount: 1,
      disputesWon: 900,
      platformFees: 270,
      monthEndFees: 995,
      net: 10_700 - 320 - 1_000 - 300 + 30 - 1_500 - 995,
    });
  });

  test("a settlement's figures are the sums of its counted postings, with the month-end fees in its fees", () => {
    const taken = [p("charge", "ch_1", 5_000, 100), p("monthly_fee", "stmt_1", -995), p("refund", "re_1", -250)];
    const sums = postingSums(taken);
    expect(settlementFigures(taken, -40)).toMatchObject({
      gross: sums.gross,
      fees: sums.processingFees + sums.monthEndFees,
      refunds: sums.refunds,
      net: sums.net - 40,
    });
  });
});

describe("a settlement's summary lines", () => {
  const lineTypes = [...activityPostingTypes, "monthly_fee"] as const;
  test("add up to its net for every posting type, alone and mixed, with a carried-in balance", () => {
    // A seeded walk (no Math.random): each posting type alone, then 300 random mixes.
    let seed = 7;
    const next = (n: number) => ((seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648), seed % n);
    const posting = (type: (typeof lineTypes)[number], i: number): TakenPosting => {
      const magnitude = 1 + next(50_000);
      const positive =
        type === "charge" || type === "ach_return_reversal" || type === "dispute_won" || type === "platform_fee_refund";
      return p(type, `src_${next(4)}_${i}`, positive ? magnitude : -magnitude, type === "charge" ? next(magnitude) : 0);
    };
    const mixes: TakenPosting[][] = lineTypes.map((type) => [posting(type, 0)]);
    for (let m = 0; m < 300; m++)
      mixes.push(
        Array.from({ length: 1 + next(12) }, (_, i) => posting(lineTypes[next(lineTypes.length)] ?? "charge", i)),
      );
    for (const mix of mixes) {
      const carried = next(3) === 0 ? -next(5_000) : 0;
      const figures = settlementFigures(mix, carried);
      const lines = summaryLines(figures);
      expect(lines.reduce((t, l) => t + l.amount, 0)).toBe(figures.net);
    }
  });

  test("in order, with the optional lines only when the settlement has them", () => {
    const plain = summaryLines(settlementFigures([p("charge", "ch_1", 1_000, 59)]));
    expect(plain).toEqual([
      { key: "gross", count: 1, amount: 1_000 },
      { key: "refunds", count: 0, amount: 0 },
      { key: "fees", count: null, amount: -59 },
    ]);
    const full = summaryLines(
      settlementFigures(
        [
          p("charge", "ch_1", 30_000, 900),
          p("refund", "re_1", -1_000),
          p("ach_return", "ch_2", -2_000),
          p("ach_return_reversal", "ch_3", 500),
          p("platform_fee", "ch_1", -300),
          p("dispute", "dp_1", -9_000),
          p("dispute_fee", "dp_1", -1_500),
          p("dispute_won", "dp_2", 4_000),
        ],
        -250,
      ),
    );
    expect(full.map((l) => [l.key, l.amount])).toEqual([
      ["gross", 30_000],
      ["refunds", -1_000],
      ["returns", -2_000],
      ["reversals", 500],
      ["fees", -900],
      ["platform_fees", -300],
      ["disputes", -10_500],
      ["disputes_won", 4_000],
      ["carried_in", -250],
    ]);
    expect(lineAmount(full, "platform_fees")).toBe(-300);
    expect(lineAmount(plain, "platform_fees")).toBe(0);
  });
});
