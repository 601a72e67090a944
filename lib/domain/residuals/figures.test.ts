import fc from "fast-check";
import { describe, expect, test } from "vitest";

import { lineOf, residualOf, shareOf } from "./figures";

const month = (merchantId: string, merchantFees: number, costs: number, platformFees = 0) => ({
  merchantId,
  volume: 100_000,
  count: 10,
  merchantFees,
  costs,
  platformFees,
});

describe("a residual, by hand", () => {
  test("80 % of the margin, half away from zero, per merchant", () => {
    expect(shareOf(1_000, 80)).toBe(800);
    expect(shareOf(1_001, 80)).toBe(801); // 800.8
    expect(shareOf(1_003, 50)).toBe(502); // 501.5 → 502
    expect(shareOf(-1_003, 50)).toBe(-502);
    expect(shareOf(-1, 50)).toBe(-1); // -0.5 → -1
    expect(shareOf(0, 80)).toBe(0);
  });
  test("lines add up to the residual; platform fees are the ISV's whole; a loss carries in", () => {
    const lines = [month("mer_a", 3_210, 1_990, 500), month("mer_b", 700, 950), month("mer_c", 1_001, 0, 25)].map((m) =>
      lineOf(m, 80),
    );
    expect(lines.map((l) => [l.margin, l.share, l.amount])).toEqual([
      [1_220, 976, 1_476],
      [-250, -200, -200],
      [1_001, 801, 826],
    ]);
    expect(residualOf(lines, -300)).toMatchObject({
      volume: 300_000,
      count: 30,
      merchantFees: 4_911,
      costs: 2_940,
      margin: 1_971,
      share: 1_577,
      platformFees: 525,
      carriedIn: -300,
      amount: 1_476 - 200 + 826 - 300,
      status: "pending",
    });
  });
  test("negative: carried; nothing: paid (nothing to pay); a positive amount cannot be carried in", () => {
    expect(residualOf([lineOf(month("mer_a", 100, 500), 80)], 0).status).toBe("carried");
    expect(residualOf([], 0)).toMatchObject({ amount: 0, status: "paid" });
    expect(() => residualOf([], 5)).toThrow(RangeError);
  });
});

test("any month: the lines' amounts plus what is carried in are the residual's amount, each share within half a cent", () => {
  fc.assert(
    fc.property(
      fc.array(
        fc.record({
          merchantFees: fc.integer({ min: 0, max: 50_000_000 }),
          costs: fc.integer({ min: 0, max: 50_000_000 }),
          platformFees: fc.integer({ min: -1_000_000, max: 5_000_000 }),
        }),
        { maxLength: 30 },
      ),
      fc.integer({ min: 0, max: 100 }),
      fc.integer({ min: -10_000_000, max: 0 }),
      (months, percent, carriedIn) => {
        const lines = months.map((m, i) => lineOf({ merchantId: `mer_${i}`, volume: 0, count: 0, ...m }, percent));
        for (const l of lines) expect(Math.abs(l.share * 100 - l.margin * percent)).toBeLessThanOrEqual(50);
        const residual = residualOf(lines, carriedIn);
        expect(residual.amount).toBe(lines.reduce((s, l) => s + l.amount, 0) + carriedIn);
        expect(residual.margin).toBe(residual.merchantFees - residual.costs);
        expect(residual.amount).toBe(residual.share + residual.platformFees + carriedIn);
      },
    ),
    { numRuns: 300 },
  );
});
