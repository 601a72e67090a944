import { describe, expect, test } from "vitest";
import { refundableAmount } from "./refundable";

describe("what can still be refunded", () => {
  test.each([
    ["AUTHORIZED", 2_706, 500, 2_206],
    ["SETTLED", 2_706, 2_706, 0],
    ["FAILED", 0, 0, 0],
    ["RETURNED", 4_000, 0, 0],
  ] as const)("%s, captured %i, refunded %i → %i", (status, amountCaptured, amountRefunded, left) =>
    expect(refundableAmount({ status, amountCaptured, amountRefunded })).toBe(left),
  );
});
