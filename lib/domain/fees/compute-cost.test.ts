import fc from "fast-check";
import { describe, expect, test } from "vitest";

import { defaultCostProfile } from "../../schemas/cost-profile";
import { achCosts, cardCosts, marginOf } from "./compute-cost";

// The sandbox's interchange (docs/reference.md section 19): V/MC/D credit present 1.51 % + 10¢, not
// present 1.80 % + 10¢; debit 0.05 % + 22¢; American Express 2.30 % + 10¢.
const credit = { present: { bps: 151, fixed: 10 }, keyed: { bps: 180, fixed: 10 } };
const debit = { bps: 5, fixed: 22 };
const amex = { bps: 230, fixed: 10 };
const p = defaultCostProfile;

describe("a payment's costs, by hand", () => {
  test("$100.00 on a credit card read by a terminal: 161 + 14 + 15 = 190 cents", () => {
    expect(cardCosts(10_000, { cardClass: "vmd_credit", present: true }, credit.present, p)).toEqual({
      costs: 190,
      lines: [
        {
          type: "interchange",
          rate_bps: 151,
          fixed: 10,
          amount: 161,
          description: "Interchange, Visa, Mastercard, Discover credit, card present",
        },
        { type: "network", rate_bps: 14, fixed: 0, amount: 14, description: "Card network assessment" },
        { type: "processor", rate_bps: 10, fixed: 5, amount: 15, description: "Processor fee" },
      ],
    });
  });
  test("$12.34 keyed: rounded once (40.1736 → 40), the lines 32 + 2 and the remainder 6", () => {
    const { costs, lines } = cardCosts(1_234, { cardClass: "vmd_credit", present: false }, credit.keyed, p);
    expect(costs).toBe(40);
    expect(lines.map((l) => l.amount)).toEqual([32, 2, 6]);
  });
  test("debit and American Express", () => {
    expect(cardCosts(1_234, { cardClass: "vmd_debit", present: false }, debit, p).costs).toBe(31); // 30.5786
    expect(cardCosts(10_000, { cardClass: "amex", present: true }, amex, p).costs).toBe(269);
  });
  test("an ACH debit costs its per-item fee; nothing captured costs nothing", () => {
    expect(achCosts(90_000, p)).toEqual({
      costs: 25,
      lines: [{ type: "ach", rate_bps: 0, fixed: 25, amount: 25, description: "ACH debit" }],
    });
    expect(achCosts(0, p)).toEqual({ costs: 0, lines: [] });
    expect(cardCosts(0, { cardClass: "amex", present: true }, amex, p)).toEqual({ costs: 0, lines: [] });
  });
  test("a profile's own figures are used", () => {
    const own = { ...p, card: { ...p.card, network_bps: 0, processor_bps: 0, processor_per_item: 0 } };
    expect(cardCosts(10_000, { cardClass: "vmd_credit", present: true }, credit.present, own).costs).toBe(161);
    expect(achCosts(100, { ...p, ach: { per_item: 40, return_cost: 0 } }).costs).toBe(40);
  });
  test("the margin is the fee less the costs, and may be negative", () => {
    expect(marginOf(320, 190)).toBe(130);
    expect(marginOf(0, 25)).toBe(-25);
  });
});

test("for any amount and card: the lines add up to the costs, rounded once within half a cent of exact", () => {
  fc.assert(
    fc.property(
      fc.integer({ min: 1, max: 99_999_999 }),
      fc.constantFrom("vmd_credit" as const, "vmd_debit" as const, "amex" as const),
      fc.boolean(),
      (amount, cardClass, present) => {
        const ic =
          cardClass === "amex" ? amex : cardClass === "vmd_debit" ? debit : present ? credit.present : credit.keyed;
        const { costs, lines } = cardCosts(amount, { cardClass, present }, ic, p);
        expect(lines.reduce((s, l) => s + l.amount, 0)).toBe(costs);
        const exact = (amount * (ic.bps + 14 + 10)) / 10_000 + ic.fixed + 5;
        expect(Math.abs(costs - exact)).toBeLessThanOrEqual(0.5);
        expect(Number.isInteger(costs)).toBe(true);
      },
    ),
  );
});
