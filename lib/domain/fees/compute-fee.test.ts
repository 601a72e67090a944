import { describe, expect, test } from "vitest";

import { initialDefaultCapabilities as defaults } from "../../schemas/capabilities";
import { achFee, type CardClass, cardClassOf, cardFee, tierOf } from "./compute-fee";

const o = defaults.options;
const facts = (amount: number, cardClass: CardClass = "vmd_credit", present = false, keyedWithPostalCode = false) => ({
  amount,
  cardClass,
  present,
  keyedWithPostalCode,
});

// Hand-worked: fee = round_half_up(A × rate + fixed), once per charge.
describe("flat_rate", () => {
  test.each([
    // $100 at 2.90 % + $0.30 → $2.90 + $0.30 = $3.20
    [10_000, "vmd_credit", o.flat_rate, 320],
    // debit class: 2.50 % + $0.25 on $100 → $2.75
    [10_000, "vmd_debit", o.flat_rate, 275],
    // amex 3.50 % + $0.30 on $40.00 → 140 + 30 = 170
    [4_000, "amex", o.flat_rate, 170],
    // half a cent rounds up: 2.50 % of 101 = 2.525 + 25 = 27.525 → 28
    [101, "vmd_debit", o.flat_rate, 28],
    // just under half rounds down: 2.90 % of 1 = 0.029 + 30 → 30
    [1, "vmd_credit", o.flat_rate, 30],
    // zero: only the fixed fee
    [0, "vmd_credit", o.flat_rate, 30],
    // the largest total: 99,999,999 × 2.90 % = 2,899,999.971 + 30 = 2,900,029.971 → 2,900,030
    [99_999_999, "vmd_credit", o.flat_rate, 2_900_030],
    // class fields empty: the model's rate_percent and fee_fixed
    [10_000, "amex", { rate_percent: "2.00", fee_fixed: "0.10" }, 210],
  ] as const)("%i cents, %s → %i", (amount, cardClass, options, fee) => {
    const result = cardFee("flat_rate", options, facts(amount, cardClass));
    expect(result.fee).toBe(fee);
    expect(result.lines).toHaveLength(1);
    expect(result.lines[0]!.amount).toBe(fee);
  });

  test("the line says the rate in basis points and the fixed fee in cents", () => {
    expect(cardFee("flat_rate", o.flat_rate, facts(10_000)).lines).toEqual([
      {
        type: "processing",
        model: "flat_rate",
        rate_bps: 290,
        fixed: 30,
        amount: 320,
        description: "Flat rate, Visa, Mastercard, Discover credit",
      },
    ]);
    // four decimals of a percent and of a dollar stay exact: 0.0525 % = 5.25 bp, $0.0525 = 5.25 cents
    const fine = cardFee("flat_rate", { rate_percent: "0.0525", fee_fixed: "0.0525" }, facts(100_000));
    expect(fine.lines[0]).toMatchObject({ rate_bps: 5.25, fixed: 5.25, amount: 58 }); // 52.5 + 5.25 = 57.75 → 58
  });
});

describe("two_tiered", () => {
  test.each([
    [10_000, "vmd_credit", true, 270], // 2.60 % + 0.10
    [10_000, "vmd_debit", false, 320], // 2.90 % + 0.30 (debit is vmd too)
    [10_000, "amex", true, 310], // 3.00 % + 0.10
    [10_000, "amex", false, 360], // 3.30 % + 0.30
  ] as const)("%i cents, %s, present %s → %i", (amount, cardClass, present, fee) => {
    expect(cardFee("two_tiered", o.two_tiered, facts(amount, cardClass, present)).fee).toBe(fee);
  });
});

describe("tiered", () => {
  test.each([
    [10_000, "vmd_credit", true, false, "qualified", 169], // 1.69 %, no fixed
    [10_000, "vmd_credit", false, true, "mid_qualified", 259], // 2.49 % + 0.10
    [10_000, "vmd_credit", false, false, "non_qualified", 339], // 3.29 % + 0.10
    [10_000, "vmd_debit", true, false, "qualified", 129],
    [10_000, "amex", false, false, "non_qualified", 369], // 3.59 % + 0.10
  ] as const)("%i cents, %s, present %s, postal code %s → %s, %i", (amount, cardClass, present, zip, tier, fee) => {
    const f = facts(amount, cardClass, present, zip);
    expect(tierOf(f)).toBe(tier);
    expect(cardFee("tiered", o.tiered, f).fee).toBe(fee);
  });

  test("legacy qualified_* fields when the class's fields are empty", () => {
    const legacy = {
      qualified_rate_percent: "1.50",
      qualified_fee_fixed: "0.05",
      non_qualified_rate_percent: "3.00",
      non_qualified_fee_fixed: "0.20",
    };
    expect(cardFee("tiered", legacy, facts(10_000, "vmd_credit", true)).fee).toBe(155);
    expect(cardFee("tiered", legacy, facts(10_000, "amex", false)).fee).toBe(320);
  });
});

describe("pass_through_ic", () => {
  test("interchange and markup are two lines that add up to the fee, rounded once", () => {
    // $100 vmd credit: interchange 0.25 % + 0.10 = 35; markup 0.30 % + 0.10 = 40; fee 75
    const r = cardFee("pass_through_ic", o.pass_through_ic, facts(10_000));
    expect(r.fee).toBe(75);
    expect(r.lines.map((l) => [l.type, l.amount])).toEqual([
      ["interchange", 35],
      ["markup", 40],
    ]);
  });

  test("two halves of a cent make one cent, not two (rounded once)", () => {
    // 1.5 % of 101 = 1.515 → each line alone rounds to 2 (1.515 → 2); together 3.03 → 3
    const r = cardFee(
      "pass_through_ic",
      { vmd_credit_discount_percent: "1.5", processor_markup_percent: "1.5" },
      facts(101),
    );
    expect(r.fee).toBe(3);
    expect(r.lines.reduce((s, l) => s + l.amount, 0)).toBe(3);
  });

  test("amex and debit use their own interchange", () => {
    expect(cardFee("pass_through_ic", o.pass_through_ic, facts(10_000, "amex")).fee).toBe(35 + 10 + 40); // 0.35 % + 0.10, markup 40
    expect(cardFee("pass_through_ic", o.pass_through_ic, facts(10_000, "vmd_debit")).fee).toBe(15 + 5 + 40);
  });
});

describe("cash_discount", () => {
  test.each([
    ["3.99", 10_399, 399], // the card price $103.99 holds $3.99
    ["4.00", 10_400, 400],
    ["4.00", 1_000, 38], // 1000 × 4 / 104 = 38.46 → 38
    ["3.50", 0, 0],
  ] as const)("advantage %s on %i → %i", (advantage_rate, amount, fee) => {
    expect(cardFee("cash_discount", { advantage_rate }, facts(amount)).fee).toBe(fee);
  });
});

describe("ach and classes", () => {
  test("ACH: A × txn_fee_percent + txn_fee_fixed", () => {
    expect(achFee(o.ach, 10_000).fee).toBe(75); // 0.50 % + 0.25
  });
  test.each([
    ["visa", "credit", "vmd_credit"],
    ["mastercard", "debit", "vmd_debit"],
    ["discover", "credit", "vmd_credit"],
    ["amex", "credit", "amex"],
    ["amex", "debit", "amex"],
    ["jcb", "unknown", "vmd_credit"],
  ])("%s %s → %s", (brand, funding, cardClass) => {
    expect(cardClassOf(brand, funding)).toBe(cardClass);
  });
});
