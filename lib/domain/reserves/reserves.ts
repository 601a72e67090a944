import { and, asc, desc, eq, sql } from "drizzle-orm";

import { clock } from "../../clock";
import { rowsOf } from "../../db/client";
import { one } from "../../db/one";
import { type MerchantRow, merchants, type ReserveRow, reserves } from "../../db/schema";
import { type Db, type DbOrTx } from "../../db/types";
import { AppError, invalid, notFound } from "../../errors";
import { createId } from "../../ids";
import { drawableOf } from "../../ledger/payout-draws";
import { postReserveHold, postReserveRelease, reserveLedgers } from "../../ledger/reserve-movements";
import { type CreateReserveInput, percentToBps, type ReserveCreator } from "../../schemas/reserves";
import { serializeReserve } from "../../serializers/reserve";
import { recordEvent } from "../events/record-event";
import { lockMerchant } from "../merchants/lock-merchant";
import { assertCanTakePayments, findScopedMerchant, type Scope } from "../scope";
import { dueRelease, holdFor, nextReleaseOf } from "./rules";

// Reserves (docs/reference.md section 20): created and released by the ISV (API, dashboard), the
// operator (CLI) or a risk rule; each holds part of the merchant's money in its `reserved` account
// until it is given back, by its date or by hand. Every change runs with the merchant's row locked,
// as payouts do, so a hold and a payout never draw the same cents.

/** The reserves of the merchant as the API shows them (what each holds read from the ledger). */
export async function withFacts(db: DbOrTx, rows: ReserveRow[]) {
  const ledgers = await reserveLedgers(
    db,
    rows.map((r) => r.id),
  );
  return rows.map((row) => {
    const ledger = ledgers.get(row.id) ?? { held: 0, released: 0, holds: [] };
    return serializeReserve(row, { held: ledger.held, nextRelease: nextReleaseOf(row, ledger) });
  });
}

async function lockedMerchant(tx: DbOrTx, id: string): Promise<MerchantRow> {
  const merchant = await lockMerchant(tx, id);
  if (!merchant) throw notFound("merchant", id, "merchant_id");
  return merchant;
}

/**
 * A new reserve on the merchant (approved: it has money to hold). A fixed one holds at once what it
 * can of its amount from what the merchant may draw, the rest from its next settlements; a rolling
 * one holds from its next settlement on. `reserve.created`.
 */
export async function createReserve(
  db: Db,
  scope: Scope,
  merchantId: string,
  input: CreateReserveInput,
  createdBy: ReserveCreator,
) {
  const scoped = await findScopedMerchant(db, scope, merchantId);
  if (input.type === "fixed" && input.release_on && input.release_on <= clock.now().toISOString().slice(0, 10))
    throw invalid("release_on", "release_on must be a day after today");
  return db.transaction(async (tx) => insertReserve(tx, await lockedMerchant(tx, scoped.id), input, createdBy));
}

/**
 * A new reserve, in the caller's transaction with the merchant's row locked (the API's, the CLI's, a
 * risk rule's): a fixed one holds what it can at once. `reserve.created`.
 */
export async function insertReserve(
  tx: DbOrTx,
  merchant: MerchantRow,
  input: CreateReserveInput,
  createdBy: ReserveCreator,
) {
  assertCanTakePayments(merchant);
  const now = clock.now();
  const row = one(
    await tx
      .insert(reserves)
      .values({
        id: createId("rsv"),
        isvAccountId: merchant.isvAccountId,
        merchantId: merchant.id,
        type: input.type,
        percentBps: input.type === "rolling" ? percentToBps(input.percent) : null,
        holdDays: input.type === "rolling" ? input.hold_days : null,
        amount: input.type === "fixed" ? input.amount : null,
        releaseOn: input.type === "fixed" ? (input.release_on ?? null) : null,
        reason: input.reason,
        createdBy,
        createdAt: now,
      })
      .returning(),
  );
  if (row.type === "fixed") {
    const held = holdFor(row, { held: 0 }, 0, await drawableOf(tx, merchant.id));
    if (held > 0) await postReserveHold(tx, row, held, now, row.reason);
  }
  const json = one(await withFacts(tx, [row]));
  await recordEvent(tx, { accountId: row.isvAccountId, type: "reserve.created", objectId: row.id, data: json });
  return json;
}

/** The merchant's reserves, newest first (active and released). */
export async function listReserves(db: DbOrTx, scope: Scope, merchantId: string) {
  const merchant = await findScopedMerchant(db, scope, merchantId);
  const rows = await db
    .select()
    .from(reserves)
    .where(eq(reserves.merchantId, merchant.id))
    .orderBy(desc(reserves.createdAt), desc(reserves.id));
  return withFacts(db, rows);
}

/** Ends a reserve now: all it holds goes back to `available` (the next payout takes it). `reserve.released`. */
export async function releaseReserve(db: Db, scope: Scope, merchantId: string, reserveId: string) {
  const merchant = await findScopedMerchant(db, scope, merchantId);
  return db.transaction(async (tx) => {
    await lockedMerchant(tx, merchant.id);
    const [row] = await tx
      .select()
      .from(reserves)
      .where(and(eq(reserves.id, reserveId), eq(reserves.merchantId, merchant.id)));
    if (!row) throw notFound("reserve", reserveId, "reserve_id");
    if (row.status === "released") throw new AppError("invalid_state", `The reserve ${row.id} was released already`);
    return endReserve(tx, row, clock.now());
  });
}

async function endReserve(tx: DbOrTx, row: ReserveRow, now: Date) {
  const ledger = (await reserveLedgers(tx, [row.id])).get(row.id);
  if (ledger && ledger.held > 0) await postReserveRelease(tx, row, ledger.held, now, row.reason);
  const released = one(
    await tx.update(reserves).set({ status: "released", releasedAt: now }).where(eq(reserves.id, row.id)).returning(),
  );
  const json = one(await withFacts(tx, [released]));
  await recordEvent(tx, { accountId: row.isvAccountId, type: "reserve.released", objectId: row.id, data: json });
  return json;
}

/** The merchant's active reserves, oldest first (in the caller's transaction, the merchant locked). */
const activeOf = (tx: DbOrTx, merchantId: string) =>
  tx
    .select()
    .from(reserves)
    .where(and(eq(reserves.merchantId, merchantId), eq(reserves.status, "active")))
    .orderBy(asc(reserves.createdAt), asc(reserves.id));

/**
 * A settlement's holds, in its transaction (the merchant locked), before its payout is made: each
 * active reserve, oldest first, holds its part (./rules.ts holdFor) of what the settlement `added`.
 */
export async function holdForSettlement(tx: DbOrTx, merchantId: string, added: number, at: Date) {
  const active = await activeOf(tx, merchantId);
  if (active.length === 0) return;
  const ledgers = await reserveLedgers(
    tx,
    active.map((r) => r.id),
  );
  for (const row of active) {
    const held = holdFor(row, ledgers.get(row.id) ?? { held: 0 }, added, await drawableOf(tx, merchantId));
    if (held > 0) await postReserveHold(tx, row, held, at, row.reason);
  }
}

/**
 * The daily release (before the day's settlements, so what comes back leaves with their payouts):
 * each active reserve gives back what is due (a rolling reserve's holds whose day came; a fixed
 * reserve, all of it on its `release_on`, and ends). Of one ISV or merchant, or all. Answers how
 * many reserves gave something back.
 */
export async function releaseDueReserves(
  db: Db,
  now: Date,
  scope: { isvAccountId?: string; merchantId?: string } = {},
) {
  const owners = rowsOf<{ merchant_id: string }>(
    await db.execute(sql`select distinct merchant_id from reserves where status = 'active'
      ${scope.isvAccountId ? sql`and isv_account_id = ${scope.isvAccountId}` : sql``}
      ${scope.merchantId ? sql`and merchant_id = ${scope.merchantId}` : sql``}`),
  );
  let count = 0;
  for (const { merchant_id } of owners)
    count += await db.transaction(async (tx) => {
      await lockedMerchant(tx, merchant_id);
      const active = await activeOf(tx, merchant_id);
      const ledgers = await reserveLedgers(
        tx,
        active.map((r) => r.id),
      );
      let released = 0;
      for (const row of active) {
        const ledger = ledgers.get(row.id);
        if (!ledger) continue;
        const due = dueRelease(row, ledger, now);
        if (row.type === "fixed" && row.releaseOn && row.releaseOn <= now.toISOString().slice(0, 10)) {
          await endReserve(tx, row, now);
          released += 1;
        } else if (due > 0) {
          await postReserveRelease(tx, row, due, now, row.reason);
          released += 1;
        }
      }
      return released;
    });
  return count;
}

/** The operator's scope for one merchant (any ISV's: the operator is the platform); 404 for none. */
export async function operatorScopeOf(db: DbOrTx, merchantId: string): Promise<Scope> {
  const [row] = await db
    .select({ isvAccountId: merchants.isvAccountId })
    .from(merchants)
    .where(eq(merchants.id, merchantId));
  if (!row) throw notFound("merchant", merchantId);
  return { isvAccountId: row.isvAccountId };
}
