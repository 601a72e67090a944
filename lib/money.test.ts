import { describe, expect, test } from "vitest";

import {
  divideHalfUp,
  dollarNumberToCents,
  dollarsToCents,
  feeToCentiCents,
  formatCents,
  includedSurcharge,
  parsePricingOptions,
  parseScaled,
  percentOf,
  percentToPpm,
  ppmToBps,
  typedDollarsToCents,
} from "./money";

describe("money", () => {
  test.each([
    ["0", 0],
    ["0.3", 30],
    ["0.30", 30],
    ["35.5", 3550],
    ["2500", 250000],
    ["99999999.99", 9999999999],
  ])("dollarsToCents(%s) = %i", (v, cents) => expect(dollarsToCents(v)).toBe(cents));

  test.each(["", "-1", "1.234", "1e3", "0x10", " ", "1.", ".5", "NaN"])("dollarsToCents(%j) is refused", (v) => {
    expect(() => dollarsToCents(v)).toThrow(RangeError);
  });

  test.each([
    ["2.90", 29_000, "290"],
    ["2.9", 29_000, "290"],
    ["0.0525", 525, "5.25"],
    ["2.9125", 29_125, "291.25"],
    ["100", 1_000_000, "10000"],
    ["0", 0, "0"],
    ["0.001", 10, "0.1"],
  ])("percentToPpm(%s) = %i ppm = %s bps", (v, ppm, bps) => {
    expect(percentToPpm(v)).toBe(ppm);
    expect(ppmToBps(ppm)).toBe(bps);
  });

  test("a rate above 100 % or with five decimals is refused", () => {
    expect(() => percentToPpm("100.0001")).toThrow(RangeError);
    expect(() => percentToPpm("1.00001")).toThrow(RangeError);
    expect(parseScaled("1.5", 4)).toBe(15_000);
  });

  test.each([
    // $100 at 2.90 % + $0.30 → $3.20 (docs/reference.md section 13's worked example)
    [10_000, "2.90", "0.30", 320],
    // half up, once: $10.50 at 2.90 % = 30.45 c + 30 c = 60.45 → 60; $10.55 → 30.595 + 30 = 60.595 → 61
    [1_050, "2.90", "0.30", 60],
    [1_055, "2.90", "0.30", 61],
    // exactly half a cent rounds up: 50 c at 1 % = 0.5 c
    [50, "1", "0", 1],
    [49, "1", "0", 0],
    // sub-cent fixed fees add before the one rounding: 0.0525 + 0.0049 of $1 at 0.49 % → 5.25 c + 0.49 c = 5.74 → 6
    [100, "0.49", "0.0525", 6],
    // the largest total the contract allows, at 100 %: no precision lost
    [99_999_999, "100", "0", 99_999_999],
    [99_999_999, "2.9125", "0.0001", 2_912_500],
    [0, "2.90", "0.30", 30],
  ])("percentOf(%i, %s percent, $%s) = %i", (amount, rate, fixed, fee) => {
    expect(percentOf(amount, percentToPpm(rate), feeToCentiCents(fixed))).toBe(fee);
  });

  test.each([
    // cash discount 3.99 on $103.99 → $3.99 (docs/reference.md section 13)
    [10_399, "3.99", 399],
    [10_400, "4.00", 400],
    [100, "4.00", 4],
  ])("includedSurcharge(%i, %s percent) = %i", (amount, rate, fee) => {
    expect(includedSurcharge(amount, percentToPpm(rate))).toBe(fee);
  });

  test("amounts must be non-negative safe integers of cents", () => {
    expect(() => percentOf(1.5, 100)).toThrow(RangeError);
    expect(() => percentOf(-1, 100)).toThrow(RangeError);
    expect(() => includedSurcharge(Number.MAX_SAFE_INTEGER + 1, 100)).toThrow(RangeError);
  });

  test.each([
    [25, 2500],
    [25.5, 2550],
    [0.1, 10],
    [0.125, 13],
    [0, 0],
    [100000, 10_000_000],
  ])("dollarNumberToCents(%d) = %i", (n, cents) => {
    expect(dollarNumberToCents(n)).toBe(cents);
  });

  test("divideHalfUp", () => {
    expect(divideHalfUp(5n, 10n)).toBe(1n);
    expect(divideHalfUp(4n, 10n)).toBe(0n);
    expect(divideHalfUp(15n, 10n)).toBe(2n);
    expect(divideHalfUp(25n, 10n)).toBe(3n);
    expect(() => divideHalfUp(-1n, 10n)).toThrow(RangeError);
  });

  test("parsePricingOptions splits rates from fixed fees by name", () => {
    expect(
      parsePricingOptions({
        rate_percent: "2.90",
        fee_fixed: "0.30",
        monthly_fee: "10.00",
        gross_volume_discount_rate: "0.5",
        advantage_rate: "4.00",
      }),
    ).toEqual({
      rate_percent: { rate: 29_000 },
      fee_fixed: { fixed: 3_000 },
      monthly_fee: { fixed: 100_000 },
      gross_volume_discount_rate: { rate: 5_000 },
    });
  });

  test("formatCents in the reader's words", () => {
    expect(formatCents(123_456, "en")).toBe("$1,234.56");
    expect(formatCents(5, "en")).toBe("$0.05");
    expect(formatCents(-250, "en")).toBe("-$2.50");
    expect(formatCents(123_456, "es-US")).toMatch(/1,234\.56/);
  });
});

describe("money: edges", () => {
  test("refuses amounts past 2^53 units and negative or non-finite dollars", () => {
    expect(() => parseScaled("9999999999.9999", 4)).not.toThrow();
    expect(() => parseScaled("9999999999", 9)).toThrow(RangeError);
    expect(() => dollarNumberToCents(-0.01)).toThrow(RangeError);
    expect(() => dollarNumberToCents(Number.NaN)).toThrow(RangeError);
    expect(() => dollarNumberToCents(Number.POSITIVE_INFINITY)).toThrow(RangeError);
  });

  test("ppmToBps drops only trailing zeros of the fraction", () => {
    expect(ppmToBps(29_105)).toBe("291.05");
    expect(ppmToBps(29_150)).toBe("291.5");
    expect(ppmToBps(100)).toBe("1");
    expect(ppmToBps(5)).toBe("0.05");
  });

  test("divideHalfUp refuses a zero or negative divisor", () => {
    expect(() => divideHalfUp(1n, 0n)).toThrow(RangeError);
    expect(() => divideHalfUp(1n, -1n)).toThrow(RangeError);
  });
});

test.each([
  ["5", 500],
  ["12.5", 1250],
  ["12,50", 1250],
  [" 30.00 ", 3000],
  ["12,5x", null],
  ["", null],
  ["1.234", null],
  ["-1", null],
  // As people type them (issue 48): a dollar sign, thousands, a Spanish decimal comma.
  ["$9.50", 950],
  ["$ 9.50", 950],
  ["18,000", 1_800_000],
  ["1,234.56", 123_456],
  ["1,234,567", 123_456_700],
  ["9,50", 950],
  ["9,5", 950],
  ["18,00", 1800],
  ["1,2345", null],
  ["12,34,567", null],
  ["1,234,56", null],
  ["$$5", null],
  ["5$", null],
])("typedDollarsToCents(%j) = %j", (typed, cents) => expect(typedDollarsToCents(typed)).toBe(cents));
