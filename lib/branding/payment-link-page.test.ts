import { describe, expect, test } from "vitest";

import { centsFromTyped } from "./payment-link-page";

describe("an amount a customer types", () => {
  test("becomes whole cents, with a point or a comma, and grouped thousands", () => {
    expect(["25", "25.5", "25,50", "$25.50", " 1,250.00 ", "1.250,75", "0.07"].map(centsFromTyped)).toEqual([
      2500, 2550, 2550, 2550, 125000, 125075, 7,
    ]);
  });
  test("is refused when it is not an amount", () => {
    expect(["", "abc", "-5", "1e3", "2.5555", "12.3.4", "9999999999"].map(centsFromTyped)).toEqual(Array(7).fill(null));
  });
});
