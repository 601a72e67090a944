import fc from "fast-check";
import { describe, expect, test } from "vitest";

import { instantFee, largestInstant } from "./instant-fee";

describe("instant payout figures", () => {
  test("the fee: both parts half up, the markup within it", () => {
    expect(instantFee(5_000, 100, 50)).toEqual({ fee: 75, markup: 25 });
    expect(instantFee(9_537, 100, 50)).toEqual({ fee: 143, markup: 48 });
    expect(instantFee(33, 100, 0)).toEqual({ fee: 0, markup: 0 });
    expect(instantFee(50, 100, 0)).toEqual({ fee: 1, markup: 0 });
  });
  test("the largest amount whose fee fits beside it, and never one cent more", () => {
    expect(largestInstant(9_680, 150)).toBe(9_537);
    expect(largestInstant(0, 150)).toBe(0);
    expect(largestInstant(-500, 150)).toBe(0);
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 10_000_000 }), fc.integer({ min: 0, max: 1_100 }), (drawable, bps) => {
        const amount = largestInstant(drawable, bps);
        const fee = (a: number) => instantFee(a, bps, 0).fee;
        expect(amount + fee(amount)).toBeLessThanOrEqual(drawable);
        expect(amount + 1 + fee(amount + 1)).toBeGreaterThan(drawable);
      }),
    );
  });
});
