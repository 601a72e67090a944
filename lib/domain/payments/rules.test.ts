import { describe, expect, test } from "vitest";

import { paymentRequestStatuses } from "../../schemas/payment-values";
import { effectiveStatus, isFinalRequest, isPastDeadline, paymentRequestMoves } from "./rules";

// The payment request's rules without a database: its moves (only PENDING moves: a PAID request can
// never be canceled or expired), and the status a reader sees at the deadline's instant.

const deadline = new Date("2026-03-01T12:00:00.000Z");
const at = deadline.getTime();

describe("payment request rules", () => {
  test("every move starts from PENDING only, to its own final state", () => {
    expect(paymentRequestMoves).toEqual({
      payRequest: { from: ["PENDING"], to: "PAID" },
      cancelRequest: { from: ["PENDING"], to: "CANCELED" },
      expireRequest: { from: ["PENDING"], to: "EXPIRED" },
    });
  });

  test("every status but PENDING is final", () => {
    expect(paymentRequestStatuses.filter((s) => !isFinalRequest(s))).toEqual(["PENDING"]);
  });

  test("the deadline: payable until the instant before, past it from the instant itself", () => {
    expect(isPastDeadline({ expiresAt: deadline }, at - 1)).toBe(false);
    expect(isPastDeadline({ expiresAt: deadline }, at)).toBe(true);
    expect(isPastDeadline({ expiresAt: deadline }, at + 1)).toBe(true);
  });

  test.each([
    ["PENDING", at - 1, "PENDING"],
    ["PENDING", at, "EXPIRED"],
    ["PAID", at + 60_000, "PAID"],
    ["CANCELED", at + 60_000, "CANCELED"],
    ["EXPIRED", at - 1, "EXPIRED"],
  ] as const)("a %s request read at %i is %s", (status, now, seen) => {
    expect(effectiveStatus({ status, expiresAt: deadline }, now)).toBe(seen);
  });
});
