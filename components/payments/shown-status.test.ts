import { describe, expect, test } from "vitest";

import { shownStatus, shownStatusText } from "./shown-status";

const card = {
  status: "AUTHORIZED" as const,
  amountCaptured: 2599,
  amountRefunded: 0,
  paymentMethod: "card" as "card" | "ach",
  achClearedAt: null,
};

describe("a payment's status as the lists show it", () => {
  test("paid, settled, declined and returned as stored, nothing refunded", () => {
    expect(shownStatus(card)).toEqual({ status: "AUTHORIZED", refund: null });
    expect(shownStatus({ ...card, status: "SETTLED" })).toEqual({ status: "SETTLED", refund: null });
    expect(shownStatus({ ...card, status: "FAILED" })).toEqual({ status: "FAILED", refund: null });
    expect(shownStatus({ ...card, status: "RETURNED", paymentMethod: "ach" as const })).toEqual({
      status: "RETURNED",
      refund: null,
    });
  });

  test("a refund says so beside the status, in part or in whole", () => {
    expect(shownStatus({ ...card, amountRefunded: 1 })).toEqual({ status: "AUTHORIZED", refund: "PARTLY_REFUNDED" });
    expect(shownStatus({ ...card, status: "SETTLED", amountRefunded: 2598 }).refund).toBe("PARTLY_REFUNDED");
    expect(shownStatus({ ...card, amountRefunded: 2599 }).refund).toBe("REFUNDED");
    expect(shownStatus({ ...card, status: "SETTLED", amountRefunded: 2599 }).refund).toBe("REFUNDED");
  });

  test("a bank debit is processing until it clears, as the customer's receipt says", () => {
    const ach = { ...card, paymentMethod: "ach" as const };
    expect(shownStatus(ach).status).toBe("PROCESSING");
    expect(shownStatus({ ...ach, status: "SETTLED" }).status).toBe("PROCESSING");
    expect(shownStatus({ ...ach, achClearedAt: new Date() }).status).toBe("AUTHORIZED");
    expect(shownStatus({ ...ach, status: "SETTLED", achClearedAt: new Date() }).status).toBe("SETTLED");
  });

  test("in words: the status, then the refund", () => {
    const t = (key: string) => key.replace("chargeStatus.", "");
    expect(shownStatusText(t, { ...card, status: "SETTLED", amountRefunded: 500 })).toBe("SETTLED · PARTLY_REFUNDED");
    expect(shownStatusText(t, card)).toBe("AUTHORIZED");
  });
});
