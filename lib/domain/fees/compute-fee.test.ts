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

describe("the lines say what was priced (every model's description, rate and fixed fee)", () => {
  const line = (r: ReturnType<typeof cardFee>) =>
    r.lines.map((l) => [l.type, l.model, l.description, l.rate_bps, l.fixed, l.amount]);
  test("flat rate: the class's own fields, else the model's rate_percent and fee_fixed (an empty string is absent)", () => {
    expect(line(cardFee("flat_rate", o.flat_rate, facts(10_000, "amex")))).toEqual([
      ["processing", "flat_rate", "Flat rate, American Express", 350, 30, 380],
    ]);
    const fallback = { rate_percent: "2.00", fee_fixed: "0.20", vmd_debit_rate_percent: "", vmd_debit_fee_fixed: "" };
    expect(line(cardFee("flat_rate", fallback, facts(10_000, "vmd_debit")))).toEqual([
      ["processing", "flat_rate", "Flat rate, Visa, Mastercard, Discover debit", 200, 20, 220],
    ]);
    // Nothing at all: nothing charged (no NaN, no crash).
    expect(cardFee("flat_rate", {}, facts(10_000)).fee).toBe(0);
  });
  test("two-tiered: the family and whether the card was present", () => {
    expect(line(cardFee("two_tiered", o.two_tiered, facts(10_000, "amex", true)))).toEqual([
      ["processing", "two_tiered", "Two-tiered, American Express, card present", 300, 10, 310],
    ]);
    expect(line(cardFee("two_tiered", o.two_tiered, facts(10_000, "vmd_credit", false)))).toEqual([
      ["processing", "two_tiered", "Two-tiered, Visa, Mastercard, Discover, card not present", 290, 30, 320],
    ]);
  });
  test("tiered: the tier in words, the class's own fields (debit and amex), the legacy ones when empty", () => {
    expect(line(cardFee("tiered", o.tiered, facts(10_000, "vmd_debit", false, true)))).toEqual([
      ["processing", "tiered", "Tiered, mid-qualified, Visa, Mastercard, Discover debit", 199, 10, 209],
    ]);
    expect(line(cardFee("tiered", o.tiered, facts(10_000, "amex", true)))).toEqual([
      ["processing", "tiered", "Tiered, qualified, American Express", 219, 0, 219],
    ]);
    expect(line(cardFee("tiered", o.tiered, facts(10_000, "vmd_debit", false, false)))).toEqual([
      ["processing", "tiered", "Tiered, non-qualified, Visa, Mastercard, Discover debit", 279, 10, 289],
    ]);
    const legacy = {
      mid_qualified_rate_percent: "2.00",
      mid_qualified_fee_fixed: "0.15",
      vmd_midq_credit_rate_percent: "",
    };
    expect(line(cardFee("tiered", legacy, facts(10_000, "vmd_credit", false, true)))).toEqual([
      ["processing", "tiered", "Tiered, mid-qualified, Visa, Mastercard, Discover credit", 200, 15, 215],
    ]);
  });
  test("interchange plus: each class's interchange line, then the markup", () => {
    expect(line(cardFee("pass_through_ic", o.pass_through_ic, facts(10_000, "vmd_debit")))).toEqual([
      ["interchange", "pass_through_ic", "Interchange, Visa, Mastercard, Discover debit", 15, 5, 20],
      ["markup", "pass_through_ic", "Processor markup", 30, 10, 40],
    ]);
    expect(line(cardFee("pass_through_ic", o.pass_through_ic, facts(10_000, "amex")))[0]).toEqual([
      "interchange",
      "pass_through_ic",
      "Interchange, American Express",
      35,
      10,
      45,
    ]);
  });
  test("cash discount and ACH", () => {
    expect(cardFee("cash_discount", { advantage_rate: "4.00" }, facts(10_400))).toMatchObject({
      model: "cash_discount",
      fee: 400,
    });
    expect(line(cardFee("cash_discount", { advantage_rate: "4.00" }, facts(10_400)))).toEqual([
      ["processing", "cash_discount", "Cash discount, 4.00 % included in the card price", 400, 0, 400],
    ]);
    expect(achFee(o.ach, 10_000)).toEqual({
      model: "ach",
      fee: 75,
      lines: [
        { type: "processing", model: "ach", rate_bps: 50, fixed: 25, amount: 75, description: "ACH transaction" },
      ],
    });
    expect(achFee({}, 10_000).fee).toBe(0);
  });
  test("the card class: amex whatever its funding, else debit or credit", () => {
    expect(cardClassOf("amex", "debit")).toBe("amex");
    expect(cardClassOf("visa", "debit")).toBe("vmd_debit");
    expect(cardClassOf("mastercard", "credit")).toBe("vmd_credit");
    expect(cardClassOf(null, null)).toBe("vmd_credit");
    expect(cardClassOf("discover", "prepaid")).toBe("vmd_credit");
  });
});
