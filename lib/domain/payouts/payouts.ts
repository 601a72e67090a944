import { and, eq, inArray, isNull, type SQL, sql } from "drizzle-orm";

import { hostedBaseUrl } from "../../branding/hosts";
import { decryptApplication } from "../../crypto/field-encryption";
import { cursorPage } from "../../db/cursor-page";
import { type MerchantRow, merchants, type PayoutRow, payouts, type SettlementRow } from "../../db/schema";
import { type Db, type DbOrTx } from "../../db/types";
import { invalidState, notFound } from "../../errors";
import { createId } from "../../ids";
import { enqueueJob, type JobPayload } from "../../jobs/job-types";
import { log } from "../../log";
import { queueEmail } from "../../notifications/send-email";
import { payoutFailed } from "../../notifications/templates";
import { nextBusinessDay } from "../../payouts/business-days";
import { payoutProvider } from "../../payouts/provider";
import type { ListQuery } from "../../schemas/list";
import type { PayoutFailureCode, PayoutHeldReason, PayoutStatus } from "../../schemas/payouts";
import { serializeMerchant } from "../../serializers/merchant";
import { serializePayout } from "../../serializers/payout";
import { getAccount } from "../accounts/get-account";
import { brandOf } from "../accounts/isv-facts";
import { recordEvent } from "../events/record-event";
import { merchantLocale } from "../merchants/merchant-facts";
import { requirementsFor } from "../merchants/requirements";
import { type Scope, withinScope } from "../scope";
import { heldReasonOf, nextMove, type PayoutMove, payoutMoves } from "./rules";

// Payouts (docs/reference.md section 16): each settlement with a positive net makes one, in the
// settlement's transaction; the worker sends it (pending → in_transit, arriving the next business
// day) and records the bank's answer on that day (paid | failed). A failed payout holds the
// merchant's later payouts and asks for a new bank account (requirement `payout_failed`, in the
// home and by e-mail); once that account is verified, the held payouts go and a replacement pays
// what failed. Every status write is a named move (./rules.ts): a conditional update.

type MoveColumns = Omit<Partial<typeof payouts.$inferInsert>, "status" | "id">;

async function movePayouts(tx: DbOrTx, move: PayoutMove, where: SQL | undefined, set: MoveColumns = {}) {
  const { from, to } = payoutMoves[move];
  return tx
    .update(payouts)
    .set({ heldReason: null, ...set, status: to, updatedAt: new Date() })
    .where(and(inArray(payouts.status, [...from]), where))
    .returning();
}

/** Where the money goes: the merchant's bank account as it is now (last four digits, bank name). */
function bankOf(merchant: MerchantRow) {
  const bank = decryptApplication(merchant.application).bank_account as
    { account_number?: string; bank_name?: string } | undefined;
  const number = typeof bank?.account_number === "string" ? bank.account_number : null;
  return { number, last4: number ? number.slice(-4) : null, name: bank?.bank_name ?? null };
}

const payoutEvent = (tx: DbOrTx, type: "payout.created" | "payout.paid" | "payout.failed", row: PayoutRow) =>
  recordEvent(tx, { accountId: row.isvAccountId, type, objectId: row.id, data: serializePayout(row) });

/**
 * The worker's next step for a payout, at `runAt` (now: send it; its arrival date: the bank's
 * answer). The job names its step and does nothing when the payout is no longer there (held since,
 * or moved by the sandbox's helper). A payout held then released is sent by a new job: its key
 * carries the release (a keyed job is made once, so the first one's key would make nothing).
 */
const queueAdvance = (tx: DbOrTx, row: PayoutRow, step: "send" | "settle", runAt?: Date, occasion = "") =>
  enqueueJob(tx, "payout_advance", { payout_id: row.id, step }, { key: `payout_${step}_${row.id}${occasion}`, runAt });

/** A new payout (the settlement's, or a failed one's replacement): pending and queued, or held. */
async function insertPayout(
  tx: DbOrTx,
  merchant: MerchantRow,
  input: { settlementId: string; amount: number; replaces?: string | null },
) {
  const held = heldReasonOf(merchant);
  const bank = bankOf(merchant);
  const [row] = await tx
    .insert(payouts)
    .values({
      id: createId("po"),
      isvAccountId: merchant.isvAccountId,
      merchantId: merchant.id,
      settlementId: input.settlementId,
      replaces: input.replaces ?? null,
      amount: input.amount,
      status: held ? "held" : "pending",
      heldReason: held,
      bankLast4: bank.last4,
      bankName: bank.name,
    })
    .returning();
  await payoutEvent(tx, "payout.created", row!);
  if (!held && payoutProvider().sends) await queueAdvance(tx, row!, "send");
  return row!;
}

/**
 * In the settlement's transaction (the merchant's row locked): its payout when its net is positive
 * (a negative net is carried into the next settlement instead: ../settlements/settle-merchant.ts).
 */
export async function payoutForSettlement(tx: DbOrTx, merchant: MerchantRow, settlement: SettlementRow) {
  if (settlement.net <= 0) return null;
  return insertPayout(tx, merchant, { settlementId: settlement.id, amount: settlement.net });
}

/**
 * The next step of a payout's life, once (the job, and the sandbox's advance helper): pending → sent
 * (in_transit, arriving the next business day); in_transit → the bank's answer (paid, or failed).
 * Answers the payout as moved, or null when there was nothing to do (held, paid, failed, or another
 * worker moved it first). `strict`: 409 instead of null (the helper's caller asked for a move);
 * `only`: the job's step (a send job never asks the bank's answer of a payout already sent).
 */
export async function advancePayout(
  db: Db,
  payoutId: string,
  options: { strict?: boolean; now?: Date; only?: "send" | "settle" } = {},
) {
  return db.transaction(async (tx) => {
    // The merchant's row first, then the payout's: the order of every change to a merchant's payouts
    // (reconsiderPayouts runs under the merchant's lock), so the two never wait on each other.
    const [owner] = await tx.select({ merchantId: payouts.merchantId }).from(payouts).where(eq(payouts.id, payoutId));
    if (!owner) return null;
    const [merchant] = await tx.select().from(merchants).where(eq(merchants.id, owner.merchantId)).for("update");
    const [payout] = await tx.select().from(payouts).where(eq(payouts.id, payoutId)).for("update");
    if (!payout) return null;
    const step = nextMove(payout.status);
    // A job for one step finds the payout past it (or held): nothing to do.
    if (options.only && step !== options.only) return null;
    if (!step) {
      if (options.strict)
        throw invalidState(`Cannot advance: the payout is ${payout.status}, expected pending or in_transit`);
      return null;
    }
    const now = options.now ?? new Date();
    if (step === "send") {
      const bank = bankOf(merchant!);
      const arrivalDate = nextBusinessDay(now);
      const [sent] = await movePayouts(tx, "send", eq(payouts.id, payout.id), {
        arrivalDate,
        bankLast4: bank.last4,
        bankName: bank.name,
      });
      // The bank answers on the arrival date (00:00 UTC); the sandbox's helper may ask it sooner.
      if (payoutProvider().sends) await queueAdvance(tx, sent!, "settle", new Date(`${arrivalDate}T00:00:00Z`));
      return sent!;
    }
    const outcome = await payoutProvider().outcome({ amount: payout.amount, accountNumber: bankOf(merchant!).number });
    if (outcome.status === "paid") {
      const [paid] = await movePayouts(tx, "pay", eq(payouts.id, payout.id));
      await payoutEvent(tx, "payout.paid", paid!);
      return paid!;
    }
    return failPayout(tx, merchant!, payout, outcome.code);
  });
}

/**
 * The bank refused a payout: failed with its code; the merchant's payouts not yet sent wait
 * (`payout_failed`); the merchant is asked for a new bank account (requirement
 * `merchant.bank_account`, code `payout_failed`: the home shows it) and told by e-mail.
 */
async function failPayout(tx: DbOrTx, merchant: MerchantRow, payout: PayoutRow, code: PayoutFailureCode) {
  const [failed] = await movePayouts(tx, "fail", eq(payouts.id, payout.id), { failureCode: code });
  await payoutEvent(tx, "payout.failed", failed!);
  const field = "merchant.bank_account";
  const message =
    code === "account_closed"
      ? "The bank account is closed: a payout to it was refused. Enter a new bank account."
      : code === "no_account"
        ? "The bank account does not exist: a payout to it was refused. Enter a new bank account."
        : "The bank account number is not valid: a payout to it was refused. Enter a new bank account.";
  const previous = merchant.requirements;
  const requirements = {
    currently_due: [...new Set([...(previous?.currently_due ?? []), field])],
    errors: [
      ...(previous?.errors ?? []).filter((e) => !(e.field === field && e.code === "payout_failed")),
      { field, code: "payout_failed", message },
    ],
  };
  const [updated] = await tx
    .update(merchants)
    .set({ requirements, updatedAt: new Date() })
    .where(eq(merchants.id, merchant.id))
    .returning();
  await holdPayouts(tx, updated!, "payout_failed");
  const isv = await getAccount(tx, merchant.isvAccountId);
  await recordEvent(tx, {
    accountId: merchant.isvAccountId,
    type: "merchant.updated",
    objectId: merchant.id,
    data: serializeMerchant(updated!, isv, requirementsFor(updated!, isv)),
    fields: ["requirements"],
  });
  const app = decryptApplication(merchant.application) as { main_contact_person?: { email?: string } };
  const to = app.main_contact_person?.email;
  if (to) {
    const locale = merchantLocale(merchant);
    await queueEmail(tx, {
      accountId: merchant.isvAccountId,
      merchantId: merchant.id,
      kind: "payout_failed",
      to,
      locale,
      ...payoutFailed({
        brand: brandOf(isv),
        locale,
        amount: payout.amount,
        code,
        url: `${hostedBaseUrl(isv)}/home/settings`,
      }),
    });
  }
  log.warn({ payout_id: payout.id, merchant_id: merchant.id, code }, "payout failed");
  return failed!;
}

/** The merchant's payouts not sent yet wait, for `reason` (held ones take the new reason). */
async function holdPayouts(tx: DbOrTx, merchant: MerchantRow, reason: PayoutHeldReason) {
  await movePayouts(tx, "hold", eq(payouts.merchantId, merchant.id), { heldReason: reason });
  await tx
    .update(payouts)
    .set({ heldReason: reason, updatedAt: new Date() })
    .where(and(eq(payouts.merchantId, merchant.id), eq(payouts.status, "held")));
}

/**
 * After whatever may hold or free the merchant's payouts (automatic payouts switched, a new bank
 * account entered, its check answered), in that change's transaction (the merchant's row locked):
 * while a reason holds them, the payouts not sent wait for it; once none does, the held payouts
 * go (to the bank account as it is now) and each failed payout not yet replaced is paid again.
 */
export async function reconsiderPayouts(tx: DbOrTx, merchant: MerchantRow) {
  const reason = heldReasonOf(merchant);
  if (reason) return holdPayouts(tx, merchant, reason);
  const bank = bankOf(merchant);
  const released = await movePayouts(tx, "release", eq(payouts.merchantId, merchant.id), {
    bankLast4: bank.last4,
    bankName: bank.name,
  });
  if (payoutProvider().sends)
    for (const row of released) await queueAdvance(tx, row, "send", undefined, `_${row.updatedAt.getTime()}`);
  const replacement = sql<string | null>`(select r.id from ${payouts} r where r.replaces = ${payouts.id})`;
  const unpaid = await tx
    .select()
    .from(payouts)
    .where(and(eq(payouts.merchantId, merchant.id), eq(payouts.status, "failed"), isNull(replacement)))
    .orderBy(payouts.seq);
  for (const failed of unpaid)
    await insertPayout(tx, merchant, { settlementId: failed.settlementId, amount: failed.amount, replaces: failed.id });
}

/** The job: a merchant's payouts looked at again, under its row lock (a new bank account's cooling-off ended). */
export async function runPayoutReconsider(db: Db, { merchant_id }: JobPayload<"payout_reconsider">) {
  await db.transaction(async (tx) => {
    const [merchant] = await tx.select().from(merchants).where(eq(merchants.id, merchant_id)).for("update");
    if (merchant?.status === "APPROVED") await reconsiderPayouts(tx, merchant);
  });
}

/** The job: one step of one payout. */
export async function runPayoutAdvance(db: Db, { payout_id, step }: JobPayload<"payout_advance">) {
  await advancePayout(db, payout_id, { only: step });
}

/** One payout within the caller's scope (an ISV's merchants', or a merchant's own): another's is a 404. */
export async function findPayout(db: DbOrTx, scope: Scope, id: string) {
  const [row] = await db
    .select()
    .from(payouts)
    .where(and(eq(payouts.id, id), withinScope(payouts, scope)));
  if (!row) throw notFound("payout", id);
  return row;
}

/** GET /v1/payouts: newest first, filtered by merchant, settlement and status. */
export async function listPayouts(
  db: DbOrTx,
  scope: Scope,
  query: ListQuery & { merchant_id?: string; settlement_id?: string; status?: PayoutStatus },
) {
  const filters = [
    withinScope(payouts, scope),
    ...(query.merchant_id ? [eq(payouts.merchantId, query.merchant_id)] : []),
    ...(query.settlement_id ? [eq(payouts.settlementId, query.settlement_id)] : []),
    ...(query.status ? [eq(payouts.status, query.status)] : []),
  ];
  return cursorPage(query, {
    noun: "payout",
    seq: payouts.seq,
    filters,
    positionOf: async (id) => {
      const [row] = await db
        .select({ seq: payouts.seq })
        .from(payouts)
        .where(and(withinScope(payouts, scope), eq(payouts.id, id)));
      return row?.seq ?? null;
    },
    select: (where, orderBy, limit) => db.select().from(payouts).where(where).orderBy(orderBy).limit(limit),
  });
}
