import fc from "fast-check";
import { describe, expect, test } from "vitest";

import { platformFeeInputSchema, platformFeeRulesSchema } from "../../schemas/platform-fees";
import { choosePlatformFee, feeOfSpec, platformFeeRefundOf, ruleMatches } from "./platform-fee";

const context = { paymentType: "SCAN_TO_PAY" as const, total: 10_000, merchantId: "mer_a" };

describe("a platform fee's amount, by hand", () => {
  test("an amount is itself; a percent of the total is rounded half up once", () => {
    expect(feeOfSpec({ amount: 125 }, 10_000)).toBe(125);
    expect(feeOfSpec({ percent: 2.5 }, 10_000)).toBe(250);
    // 1.15 % of $12.34 = 14.191 → 14; 1.15 is not 114.99999 basis points (read from its text).
    expect(feeOfSpec({ percent: 1.15 }, 1_234)).toBe(14);
    // 0.5 % of $1.01 = 0.505 → 1 (half up); of $0.99 = 0.495 → 0.
    expect(feeOfSpec({ percent: 0.5 }, 101)).toBe(1);
    expect(feeOfSpec({ percent: 0.5 }, 99)).toBe(0);
  });
  test("a rule's amount and percent add up, then the bounds hold", () => {
    expect(feeOfSpec({ amount: 10, percent: 1 }, 10_000)).toBe(110);
    expect(feeOfSpec({ percent: 1, min: 50 }, 1_000)).toBe(50);
    expect(feeOfSpec({ percent: 1, max: 50 }, 100_000)).toBe(50);
    expect(feeOfSpec({ percent: 1, min: 50, max: 500 }, 20_000)).toBe(200);
  });
});

describe("which rule applies", () => {
  const rules = platformFeeRulesSchema.parse([
    { match: { merchant_ids: ["mer_vip"] }, fee: { amount: 0 } },
    { match: { payment_type: "TERMINAL" }, fee: { amount: 20 } },
    { match: { card_present: false, min_amount: 50_000 }, fee: { percent: 0.5, max: 1_000 } },
    { match: { max_amount: 999 }, fee: { amount: 5 } },
    { match: {}, fee: { percent: 1 } },
  ]);
  test("the first match wins; a fee of 0 is no fee", () => {
    expect(choosePlatformFee(undefined, rules, { ...context, merchantId: "mer_vip" })).toBeNull();
    expect(choosePlatformFee(undefined, rules, { ...context, paymentType: "TERMINAL" })).toEqual({
      amount: 20,
      source: { kind: "rule", index: 1 },
    });
    expect(choosePlatformFee(undefined, rules, { ...context, total: 50_000 })).toEqual({
      amount: 250,
      source: { kind: "rule", index: 2 },
    });
    expect(choosePlatformFee(undefined, rules, { ...context, total: 49_999 })?.source).toEqual({
      kind: "rule",
      index: 4,
    });
    expect(choosePlatformFee(undefined, rules, { ...context, total: 999 })?.amount).toBe(5);
    expect(choosePlatformFee(undefined, rules, { ...context, total: 1_000 })?.amount).toBe(10);
  });
  test("the payment's own fee wins over every rule; no rules, no fee", () => {
    expect(choosePlatformFee({ amount: 7 }, rules, context)).toEqual({ amount: 7, source: { kind: "payment" } });
    expect(choosePlatformFee(undefined, [], context)).toBeNull();
  });
  test("card_present is true for a terminal only", () => {
    expect(ruleMatches({ card_present: true }, { ...context, paymentType: "TERMINAL" })).toBe(true);
    for (const paymentType of ["SCAN_TO_PAY", "INVOICE", "MANUAL"] as const)
      expect(ruleMatches({ card_present: true }, { ...context, paymentType })).toBe(false);
  });
  test("the amounts' edges are inclusive", () => {
    expect(ruleMatches({ min_amount: 100, max_amount: 200 }, { ...context, total: 100 })).toBe(true);
    expect(ruleMatches({ min_amount: 100, max_amount: 200 }, { ...context, total: 200 })).toBe(true);
    expect(ruleMatches({ min_amount: 100, max_amount: 200 }, { ...context, total: 99 })).toBe(false);
    expect(ruleMatches({ min_amount: 100, max_amount: 200 }, { ...context, total: 201 })).toBe(false);
  });
});

describe("what is valid", () => {
  test("a percent has at most two decimals and is at most 100; min is not above max", () => {
    expect(platformFeeInputSchema.safeParse({ percent: 2.555 }).success).toBe(false);
    expect(platformFeeInputSchema.safeParse({ percent: 100.5 }).success).toBe(false);
    expect(platformFeeInputSchema.safeParse({ percent: 1e-7 }).success).toBe(false);
    expect(platformFeeInputSchema.safeParse({ percent: 3, min: 10, max: 5 }).success).toBe(false);
    expect(platformFeeInputSchema.safeParse({ amount: 1.5 }).success).toBe(false);
    expect(platformFeeInputSchema.safeParse({ amount: 5, percent: 1 }).success).toBe(false);
    expect(platformFeeInputSchema.safeParse({ percent: 2.25, min: 5, max: 10 }).success).toBe(true);
  });
  test("a rule's fee gives an amount or a percent", () => {
    expect(platformFeeRulesSchema.safeParse([{ match: {}, fee: {} }]).success).toBe(false);
    expect(
      platformFeeRulesSchema.safeParse([{ match: { min_amount: 5, max_amount: 4 }, fee: { amount: 1 } }]).success,
    ).toBe(false);
  });
});

describe("the platform fee a refund gives back", () => {
  const charge = { captured: 10_000, platformFee: 300, platformFeeRefunded: 0, refundedBefore: 0 };
  test("pro rata: half the payment, half the fee; keep: nothing", () => {
    expect(platformFeeRefundOf("pro_rata", charge, 5_000)).toBe(150);
    expect(platformFeeRefundOf("keep", charge, 5_000)).toBe(0);
    expect(platformFeeRefundOf("pro_rata", { ...charge, platformFee: 0 }, 5_000)).toBe(0);
  });
  test("three refunds of a third: 33 + 34 + 33 = the whole 100, to the last cent", () => {
    let state = { captured: 999, platformFee: 100, platformFeeRefunded: 0, refundedBefore: 0 };
    const parts: number[] = [];
    for (const refund of [333, 333, 333]) {
      const part = platformFeeRefundOf("pro_rata", state, refund);
      parts.push(part);
      state = {
        ...state,
        platformFeeRefunded: state.platformFeeRefunded + part,
        refundedBefore: state.refundedBefore + refund,
      };
    }
    expect(parts).toEqual([33, 34, 33]);
  });
  test("any sequence of partial refunds: never more than the fee, the whole fee once wholly refunded", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 1_000_000 }),
        fc.integer({ min: 0, max: 100_000 }),
        fc.array(fc.integer({ min: 1, max: 1_000_000 }), { minLength: 1, maxLength: 12 }),
        (captured, feeSeed, wanted) => {
          const platformFee = feeSeed % (captured + 1);
          let state = { captured, platformFee, platformFeeRefunded: 0, refundedBefore: 0 };
          for (const w of wanted) {
            const refund = Math.min(w, captured - state.refundedBefore);
            if (refund <= 0) break;
            const part = platformFeeRefundOf("pro_rata", state, refund);
            expect(part).toBeGreaterThanOrEqual(0);
            state = {
              ...state,
              platformFeeRefunded: state.platformFeeRefunded + part,
              refundedBefore: state.refundedBefore + refund,
            };
            expect(state.platformFeeRefunded).toBeLessThanOrEqual(platformFee);
            // Within a cent of the exact share at every step.
            expect(
              Math.abs(state.platformFeeRefunded * captured - platformFee * state.refundedBefore),
            ).toBeLessThanOrEqual(captured);
          }
          // Refund the rest: the whole fee comes back.
          const rest = captured - state.refundedBefore;
          if (rest > 0) state.platformFeeRefunded += platformFeeRefundOf("pro_rata", state, rest);
          expect(state.platformFeeRefunded).toBe(platformFee);
        },
      ),
      { numRuns: 500 },
    );
  });
});
