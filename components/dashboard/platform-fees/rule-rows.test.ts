import { describe, expect, test } from "vitest";

import type { PlatformFeeRule } from "@/lib/schemas/platform-fees";

import { emptyRow, rowOf, rulesOf } from "./rule-rows";

const rules: PlatformFeeRule[] = [
  {
    match: {
      payment_type: "INVOICE",
      card_present: false,
      min_amount: 1000,
      max_amount: 250099,
      merchant_ids: ["mer_a", "mer_b"],
    },
    fee: { amount: 30, percent: 1.25, min: 50, max: 1999 },
  },
  { match: {}, fee: { amount: 5 } },
];

describe("the platform fee rules as the form's rows", () => {
  test("a rule shown as a row reads back as the same rule, to the cent", () => {
    const rows = rules.map(rowOf);
    expect(rows[0]).toMatchObject({
      paymentType: "INVOICE",
      cardPresent: "no",
      minAmount: "10.00",
      maxAmount: "2500.99",
      merchants: "mer_a, mer_b",
      amount: "0.30",
      percent: "1.25",
      min: "0.50",
      max: "19.99",
    });
    expect(rows[1]).toMatchObject({ paymentType: "", cardPresent: "", amount: "0.05", percent: "" });
    expect(rulesOf(rows)).toEqual({ ok: true, rules });
  });

  test("what a person types: a dollar sign, a decimal comma, merchants split by spaces or commas", () => {
    const row = { ...emptyRow(0), amount: "$1.5", percent: "2,5", merchants: "mer_a mer_b,mer_c" };
    expect(rulesOf([row])).toEqual({
      ok: true,
      rules: [{ match: { merchant_ids: ["mer_a", "mer_b", "mer_c"] }, fee: { amount: 150, percent: 2.5 } }],
    });
  });

  test("the first thing wrong names its row and field", () => {
    const good = { ...emptyRow(0), amount: "1.00" };
    expect(rulesOf([good, { ...emptyRow(1), amount: "1.00", max: "ten" }])).toEqual({
      ok: false,
      row: 1,
      field: "max",
    });
    expect(rulesOf([good, { ...emptyRow(1), percent: "abc" }])).toEqual({ ok: false, row: 1, field: "percent" });
    // The API's own rules: a fee needs an amount or a percent; the amounts' bounds in order.
    expect(rulesOf([good, emptyRow(1)])).toMatchObject({ ok: false, row: 1 });
    expect(rulesOf([{ ...good, minAmount: "20.00", maxAmount: "10.00" }])).toEqual({
      ok: false,
      row: 0,
      field: "min_amount",
    });
    expect(rulesOf([])).toEqual({ ok: true, rules: [] });
  });
});
