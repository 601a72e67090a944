import { describe, expect, test } from "vitest";

import { resolveAmounts } from "./amounts";

const ok = (input: Parameters<typeof resolveAmounts>[0]) => {
  const result = resolveAmounts(input);
  if (!result.ok) throw new Error(JSON.stringify(result.errors));
  return result.value;
};
const errors = (input: Parameters<typeof resolveAmounts>[0]) => {
  const result = resolveAmounts(input);
  if (result.ok) throw new Error("expected errors");
  return result.errors.map((e) => `${e.param}:${e.code}`);
};

describe("resolveAmounts", () => {
  test.each([
    [{ amount: 1000 }, { amount: 1000, tax: 0, tip: 0, total: 1000 }],
    [
      { amount: 1000, tax: 80, tip: 150 },
      { amount: 1000, tax: 80, tip: 150, total: 1230 },
    ],
    [
      {
        items: [
          { name: "Tea", quantity: 3, unit_price: 250 },
          { name: "Cake", quantity: 1, unit_price: 400 },
        ],
      },
      { amount: 1150, tax: 0, tip: 0, total: 1150 },
    ],
    // 8.25 % of 1150 = 94.875 → 95 (half up)
    [
      {
        items: [
          { name: "Tea", quantity: 3, unit_price: 250 },
          { name: "Cake", quantity: 1, unit_price: 400 },
        ],
        taxPercent: "8.25",
      },
      { amount: 1150, tax: 95, total: 1245 },
    ],
    // 10 % of 1005 = 100.5 → 101 (half up, not to even)
    [
      { amount: 1005, taxPercent: "10" },
      { tax: 101, total: 1106 },
    ],
    [
      { amount: 1005, taxPercent: "10", tax: 101, tip: 9 },
      { tax: 101, total: 1115 },
    ],
    [
      { amount: 0, tip: 500 },
      { amount: 0, total: 500 },
    ],
    // The answer's spelling is taken too, alone or alike beside the reference's.
    [
      { amount: 1005, tax_percent: "10" },
      { tax: 101, total: 1106, taxPercent: "10" },
    ],
    [
      { amount: 1005, taxPercent: "10", tax_percent: "10.00" },
      { tax: 101, total: 1106 },
    ],
    [{ amount: 99_999_999 }, { total: 99_999_999 }],
  ])("%j → %j", (input, expected) => {
    expect(ok({ merchant_id: "mer_x", ...input })).toMatchObject(expected);
  });

  test.each([
    [{}, ["amount:parameter_missing"]],
    [{ items: [{ name: "Tea", quantity: 2, unit_price: 250 }], amount: 400 }, ["amount:parameter_invalid"]],
    [{ amount: 1005, taxPercent: "10", tax: 100 }, ["tax:parameter_invalid"]],
    [{ amount: 1005, taxPercent: "10", tax_percent: "8.25" }, ["tax_percent:parameter_invalid"]],
    [{ amount: 99_999_999, tip: 1 }, ["amount:parameter_invalid"]],
    [{ items: [{ name: "Gold", quantity: 10_000, unit_price: 99_999_999 }] }, ["items:parameter_invalid"]],
    // A $0 request would be a free card check (card testing).
    [{ amount: 0 }, ["amount:parameter_invalid"]],
    [{ amount: 0, tax: 0, tip: 0 }, ["amount:parameter_invalid"]],
    [{ items: [{ name: "Sample", quantity: 1, unit_price: 0 }] }, ["items:parameter_invalid"]],
  ])("%j is refused: %j", (input, expected) => {
    expect(errors({ merchant_id: "mer_x", ...input })).toEqual(expected);
  });
});
