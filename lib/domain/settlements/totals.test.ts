import { describe, expect, test } from "vitest";

import { settlementTotals } from "./totals";

// A settlement's arithmetic, hand-worked: tests/api/ledger.test.ts runs the same rules through four
// nights on a real database.

describe("settlement totals", () => {
  test("charges less fees, refunds, returns (what was still held) and reversals (paid back)", () => {
    expect(
      settlementTotals({
        settled: [
          { amountCaptured: 10_000, fee: 320 },
          { amountCaptured: 2_500, fee: 38 },
          { amountCaptured: 700, fee: null },
        ],
        carried: [{ amount: 1_000 }, { amount: 250 }],
        returned: [
          { amountCaptured: 3_000, amountRefunded: 1_000 },
          { amountCaptured: 4_000, amountRefunded: 0 },
        ],
        reversed: [{ amountCaptured: 2_000, amountRefunded: 500 }],
      }),
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
      carriedIn: 0,
      net: 13_200 - 1_250 - 6_000 + 1_500 - 358,
    });
  });

  test("only refunds: a negative net", () => {
    expect(settlementTotals({ settled: [], carried: [{ amount: 233 }], returned: [], reversed: [] })).toEqual({
      chargeCount: 0,
      gross: 0,
      fees: 0,
      refundCount: 1,
      refunds: 233,
      returnCount: 0,
      returns: 0,
      reversalCount: 0,
      reversals: 0,
      disputeCount: 0,
      disputes: 0,
      disputeFees: 0,
      disputeWonCount: 0,
      disputesWon: 0,
      carriedIn: 0,
      net: -233,
    });
  });

  test("only a reversal: paid back in full", () => {
    expect(
      settlementTotals({
        settled: [],
        carried: [],
        returned: [],
        reversed: [{ amountCaptured: 2_000, amountRefunded: 0 }],
      }),
    ).toMatchObject({ reversals: 2_000, reversalCount: 1, net: 2_000 });
  });

  test("a negative net carried from the settlement before is taken from this one", () => {
    expect(
      settlementTotals({
        carriedIn: -233,
        settled: [{ amountCaptured: 1_000, fee: 59 }],
        carried: [],
        returned: [],
        reversed: [],
      }),
    ).toMatchObject({ gross: 1_000, fees: 59, carriedIn: -233, net: 1_000 - 59 - 233 });
    // Still negative: carried on again.
    expect(
      settlementTotals({
        carriedIn: -900,
        settled: [{ amountCaptured: 500, fee: 45 }],
        carried: [],
        returned: [],
        reversed: [],
      }).net,
    ).toBe(-445);
  });

  test("disputes: amounts and fees taken; a won dispute's amount returned, not its fee", () => {
    expect(
      settlementTotals({
        settled: [{ amountCaptured: 2_000, fee: 88 }],
        carried: [],
        returned: [],
        reversed: [],
        disputed: [
          { amount: 9_000, fee: 1_500 },
          { amount: 700, fee: 2_000 },
        ],
        won: [{ amount: 4_000 }],
      }),
    ).toMatchObject({
      disputeCount: 2,
      disputes: 9_700,
      disputeFees: 3_500,
      disputeWonCount: 1,
      disputesWon: 4_000,
      net: 2_000 - 88 - 9_700 - 3_500 + 4_000,
    });
  });
});
