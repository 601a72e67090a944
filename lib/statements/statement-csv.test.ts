import { describe, expect, test } from "vitest";

import { centsToDecimal, neutraliseFormula } from "./statement-csv";

describe("statement CSV cells", () => {
  test.each([
    [0, "0.00"],
    [5, "0.05"],
    [123456, "1234.56"],
    [-500, "-5.00"],
    [99_999_999, "999999.99"],
  ])("%i cents → %s", (cents, text) => expect(centsToDecimal(cents)).toBe(text));

  test.each([
    ['=HYPERLINK("http://x")', '\'=HYPERLINK("http://x")'],
    ["+1+2", "'+1+2"],
    ["-cmd", "'-cmd"],
    ["@SUM(A1)", "'@SUM(A1)"],
    ["\tx", "'\tx"],
    ["-5.00", "-5.00"],
    ["12.50", "12.50"],
    ["visa", "visa"],
  ])("%j → %j", (value, out) => expect(neutraliseFormula(value)).toBe(out));
});
