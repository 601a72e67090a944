import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";

import { openDatabase } from "../../db/client";
import { type ChargeRow, charges, paymentRequests } from "../../db/schema";
import type { DatabaseHandle } from "../../db/types";
import { env } from "../../env";
import { AppError } from "../../errors";
import { createId, randomBase62 } from "../../ids";
import { type ChargeStatus, chargeStatuses } from "../../schemas/payment-values";
import { createIsv } from "../accounts/create-isv";
import { getAccount } from "../accounts/get-account";
import { createMerchant } from "../merchants/create-merchant";
import {
  assertRefundable,
  type ChargeMove,
  chargeMoves,
  moveCharge,
  moveCharges,
  newChargeStatus,
  refundable,
  refundableAmount,
} from "./status";

// The charge's state machine against a real database: each named move from each state, what it
// refuses (409 naming both states, the row unchanged); what a settlement takes is the ledger's
// (tests/settlement-takes.test.ts).

let handle: DatabaseHandle;
let isvAccountId: string;
let merchantId: string;

beforeAll(async () => {
  handle = await openDatabase({ databaseUrl: env.DATABASE_URL, dataDir: env.DATA_DIR, poolSize: 2 });
  const isv = await createIsv(handle.db, {
    name: "State ISV",
    email: `state-${randomBase62(8).toLowerCase()}@example.test`,
    password: "a long password",
    live: false,
  });
  isvAccountId = isv.account_id;
  const { row } = await createMerchant(handle.db, await getAccount(handle.db, isvAccountId), {
    phone: "+14155550123",
  } as never);
  merchantId = row.id;
});
afterAll(() => handle.close());

async function chargeIn(status: ChargeStatus, extra: Partial<typeof charges.$inferInsert> = {}): Promise<ChargeRow> {
  const requestId = createId("pr");
  await handle.db.insert(paymentRequests).values({
    id: requestId,
    isvAccountId,
    merchantId,
    paymentType: "MANUAL",
    status: "PAID",
    amount: 1_000,
    tax: 0,
    tip: 0,
    expiresAt: new Date(Date.now() + 60_000),
  });
  const captured = status === "FAILED" ? 0 : 1_000;
  const [row] = await handle.db
    .insert(charges)
    .values({
      id: createId("ch"),
      isvAccountId,
      merchantId,
      paymentRequestId: requestId,
      paymentType: "MANUAL",
      status,
      requestedAmount: 1_000,
      amountAuthorized: captured,
      amountCaptured: captured,
      tip: 0,
      tax: 0,
      cardEntryMethod: "MANUAL",
      receiptNumber: randomBase62(10),
      ...extra,
    })
    .returning();
  return row!;
}

const statusOf = async (id: string) => (await handle.db.select().from(charges).where(eq(charges.id, id)))[0]!;

describe("the charge's named moves", () => {
  test("a new charge is AUTHORIZED when approved, FAILED when declined", () => {
    expect(newChargeStatus(true)).toBe("AUTHORIZED");
    expect(newChargeStatus(false)).toBe("FAILED");
  });

  test("the moves are exactly these three", () => {
    expect(chargeMoves).toEqual({
      settle: { from: ["AUTHORIZED"], to: "SETTLED" },
      returnCharge: { from: ["SETTLED"], to: "RETURNED" },
      reverseReturn: { from: ["RETURNED"], to: "SETTLED" },
    });
  });

  // Every (move, state) pair: allowed ones move and set their columns; the others answer 409 and change nothing.
  const pairs = (Object.keys(chargeMoves) as ChargeMove[]).flatMap((move) =>
    chargeStatuses.map((status) => [move, status] as const),
  );
  test.each(pairs)("%s from %s", async (move, status) => {
    const charge = await chargeIn(status);
    const before = await statusOf(charge.id);
    const allowed = (chargeMoves[move].from as readonly ChargeStatus[]).includes(status);
    const settledAt = new Date("2026-11-20T12:00:00Z");
    if (allowed) {
      const moved = await moveCharge(handle.db, charge.id, move, { settledAt });
      expect(moved.status).toBe(chargeMoves[move].to);
      expect(moved.settledAt?.toISOString()).toBe(settledAt.toISOString());
      expect((await statusOf(charge.id)).status).toBe(chargeMoves[move].to);
    } else {
      const error = await moveCharge(handle.db, charge.id, move, { settledAt }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(AppError);
      expect((error as AppError).code).toBe("invalid_state");
      expect((error as AppError).message).toBe(
        `Cannot ${move}: the charge is ${status}, expected ${chargeMoves[move].from.join(" or ")}`,
      );
      expect(await statusOf(charge.id)).toEqual(before);
    }
  });

  test("settle a FAILED charge: refused, and the charge is as it was", async () => {
    const failed = await chargeIn("FAILED");
    await expect(moveCharge(handle.db, failed.id, "settle")).rejects.toMatchObject({ code: "invalid_state" });
    expect(await statusOf(failed.id)).toEqual(failed);
  });

  test("two settlements racing for one charge: one moves it, the other finds nothing to move", async () => {
    const charge = await chargeIn("AUTHORIZED");
    const [a, b] = await Promise.all([
      moveCharges(handle.db, "settle", eq(charges.id, charge.id), { settledAt: new Date("2026-11-01T00:00:00Z") }),
      moveCharges(handle.db, "settle", eq(charges.id, charge.id), { settledAt: new Date("2026-11-02T00:00:00Z") }),
    ]);
    expect(a.length + b.length).toBe(1);
    expect((await statusOf(charge.id)).settledAt?.toISOString()).toBe(
      a.length ? "2026-11-01T00:00:00.000Z" : "2026-11-02T00:00:00.000Z",
    );
  });
});

describe("refunds: what a charge's state admits", () => {
  const card = { paymentMethod: "card", achClearedAt: null, disputeId: null } as const;
  const cleared = new Date("2026-11-20T12:00:00Z");
  test.each([
    ["AUTHORIZED", 2_706, 500, card, 2_206],
    ["SETTLED", 2_706, 2_706, card, 0],
    ["SETTLED", 2_706, 0, card, 2_706],
    ["FAILED", 0, 0, card, 0],
    ["RETURNED", 4_000, 0, card, 0],
    // ACH: nothing until the debit cleared (its bank could still return it), then what is left.
    ["AUTHORIZED", 4_000, 0, { paymentMethod: "ach", achClearedAt: null, disputeId: null }, 0],
    ["SETTLED", 4_000, 0, { paymentMethod: "ach", achClearedAt: null, disputeId: null }, 0],
    ["SETTLED", 4_000, 1_000, { paymentMethod: "ach", achClearedAt: cleared, disputeId: null }, 3_000],
    ["RETURNED", 4_000, 0, { paymentMethod: "ach", achClearedAt: null, disputeId: null }, 0],
    // Disputed: the dispute took what the customer still paid; nothing more goes back by refund.
    ["SETTLED", 4_000, 1_000, { paymentMethod: "card", achClearedAt: null, disputeId: "dp_x" }, 0],
  ] as const)("%s, captured %i, refunded %i, %j → %i", (status, amountCaptured, amountRefunded, method, left) =>
    expect(refundableAmount({ status, amountCaptured, amountRefunded, ...method })).toBe(left),
  );

  test.each([
    ["AUTHORIZED", "card", null, null],
    ["SETTLED", "card", null, null],
    ["FAILED", "card", null, "Charge ch_x is FAILED: nothing was captured, so there is nothing to refund"],
    ["RETURNED", "card", null, "Charge ch_x is RETURNED: the customer's bank already sent the money back"],
    ["AUTHORIZED", "ach", null, "Charge ch_x is a bank payment (ACH) that has not cleared"],
    ["SETTLED", "ach", null, "Charge ch_x is a bank payment (ACH) that has not cleared"],
    ["SETTLED", "ach", cleared, null],
  ] as const)("assertRefundable(%s, %s, cleared %s)", (status, paymentMethod, achClearedAt, message) => {
    const charge = { id: "ch_x", status, paymentMethod, achClearedAt, disputeId: null };
    if (message === null) expect(() => assertRefundable(charge)).not.toThrow();
    else expect(() => assertRefundable(charge)).toThrow(message);
  });
});

describe("the refund guard in SQL (what a racing refund's conditional update sees)", () => {
  // The API checks the charge first (assertRefundable), but a dispute or a return may land between
  // that read and the refund's update: the update's own predicate must refuse it then.
  const matches = async (id: string) =>
    (
      await handle.db
        .select({ id: charges.id })
        .from(charges)
        .where(and(eq(charges.id, id), refundable))
    ).length === 1;
  test.each([
    ["a settled card charge", "SETTLED", {}, true],
    ["an authorized card charge", "AUTHORIZED", {}, true],
    ["a disputed card charge", "SETTLED", { disputeId: "dp_x" }, false],
    ["a failed charge", "FAILED", {}, false],
    ["a returned charge", "RETURNED", {}, false],
    ["an ACH debit not yet cleared", "SETTLED", { paymentMethod: "ach" as const }, false],
    ["a cleared ACH debit", "SETTLED", { paymentMethod: "ach" as const, achClearedAt: new Date() }, true],
  ] as const)("%s", async (_name, status, extra, expected) => {
    const charge = await chargeIn(status, extra);
    expect(await matches(charge.id)).toBe(expected);
  });
});
