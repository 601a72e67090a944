import { describe, expect, test } from "vitest";

import type { ChargeRow } from "../../db/schema";
import {
  awaitsAchClearing,
  chargeMoves,
  heldAmount,
  newChargeStatus,
  refundableAmount,
  whyNotRefundableNow,
} from "./rules";

// The charge's rules without a database: each move's states, every refundable case with its exact
// amount and message, and what a return takes back.

type Facts = Pick<
  ChargeRow,
  "id" | "status" | "amountCaptured" | "amountRefunded" | "paymentMethod" | "achClearedAt" | "disputeId"
>;
const charge = (over: Partial<Facts> = {}): Facts => ({
  id: "ch_1",
  status: "AUTHORIZED",
  amountCaptured: 5_000,
  amountRefunded: 1_200,
  paymentMethod: "card",
  achClearedAt: null,
  disputeId: null,
  ...over,
});
const cleared = new Date("2026-03-01T00:00:00Z");

describe("charge moves", () => {
  test("each move's states, exactly", () => {
    expect(chargeMoves).toEqual({
      settle: { from: ["AUTHORIZED"], to: "SETTLED" },
      returnCharge: { from: ["SETTLED"], to: "RETURNED" },
      reverseReturn: { from: ["RETURNED"], to: "SETTLED" },
    });
  });
  test("a new charge is what the authorization said", () => {
    expect(newChargeStatus(true)).toBe("AUTHORIZED");
    expect(newChargeStatus(false)).toBe("FAILED");
  });
});

describe("refunds", () => {
  test.each([
    ["an authorized card charge", charge(), 3_800, null],
    ["a settled card charge", charge({ status: "SETTLED" }), 3_800, null],
    ["a fully refunded card charge", charge({ amountRefunded: 5_000 }), 0, null],
    ["a cleared ACH debit", charge({ paymentMethod: "ach", status: "SETTLED", achClearedAt: cleared }), 3_800, null],
    [
      "a reversed return (SETTLED, cleared)",
      charge({ paymentMethod: "ach", status: "SETTLED", achClearedAt: cleared }),
      3_800,
      null,
    ],
    [
      "a declined charge",
      charge({ status: "FAILED", amountRefunded: 0 }),
      0,
      "Charge ch_1 is FAILED: nothing was captured, so there is nothing to refund",
    ],
    [
      "a returned card-or-bank charge",
      charge({ status: "RETURNED", paymentMethod: "ach", achClearedAt: cleared }),
      0,
      "Charge ch_1 is RETURNED: the customer's bank already sent the money back",
    ],
    [
      "a disputed card charge (settled, partly refunded before)",
      charge({ status: "SETTLED", disputeId: "dp_1" }),
      0,
      "Charge ch_1 is disputed (dp_1): the dispute decides what goes back to the customer, so it cannot be refunded",
    ],
    [
      "an ACH debit not yet cleared (authorized)",
      charge({ paymentMethod: "ach" }),
      0,
      "Charge ch_1 is a bank payment (ACH) that has not cleared: its bank can still return it, so it can be refunded once it clears (after its settlement's return check)",
    ],
    [
      "an ACH debit not yet cleared (settled)",
      charge({ paymentMethod: "ach", status: "SETTLED" }),
      0,
      "Charge ch_1 is a bank payment (ACH) that has not cleared: its bank can still return it, so it can be refunded once it clears (after its settlement's return check)",
    ],
  ] as const)("%s: %i refundable", (_name, facts, amount, why) => {
    expect(refundableAmount(facts)).toBe(amount);
    expect(whyNotRefundableNow(facts)).toBe(why);
  });

  test("never a negative amount, even from a row refunded beyond its capture", () => {
    expect(refundableAmount(charge({ amountRefunded: 5_001 }))).toBe(0);
  });

  test("awaiting clearing: only an uncleared ACH debit that is neither failed nor returned", () => {
    expect(awaitsAchClearing(charge({ paymentMethod: "ach" }))).toBe(true);
    expect(awaitsAchClearing(charge({ paymentMethod: "ach", status: "SETTLED" }))).toBe(true);
    expect(awaitsAchClearing(charge({ paymentMethod: "ach", achClearedAt: cleared }))).toBe(false);
    expect(awaitsAchClearing(charge({ paymentMethod: "ach", status: "FAILED" }))).toBe(false);
    expect(awaitsAchClearing(charge({ paymentMethod: "ach", status: "RETURNED" }))).toBe(false);
    expect(awaitsAchClearing(charge())).toBe(false);
  });
});

describe("what a return takes back", () => {
  test("what the merchant still holds: captured less refunded", () => {
    expect(heldAmount({ amountCaptured: 3_000, amountRefunded: 1_000 })).toBe(2_000);
    expect(heldAmount({ amountCaptured: 3_000, amountRefunded: 0 })).toBe(3_000);
  });
});
