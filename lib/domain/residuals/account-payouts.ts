import { and, asc, desc, eq, inArray, isNull, type SQL } from "drizzle-orm";

import { clock } from "../../clock";
import { decryptField } from "../../crypto/field-encryption";
import { cursorPage } from "../../db/cursor-page";
import { one } from "../../db/one";
import { type AccountPayoutRow, accountPayouts, type AccountRow, accounts, residuals } from "../../db/schema";
import { type Db, type DbOrTx } from "../../db/types";
import { invalidState, notFound } from "../../errors";
import { createId } from "../../ids";
import { enqueueJob, type JobPayload } from "../../jobs/job-types";
import { postAccountPayout, postAccountPayoutOutcome } from "../../ledger/payout-movements";
import { log } from "../../log";
import { nextBusinessDay } from "../../payouts/business-days";
import { type PayoutOutcome, payoutProvider } from "../../payouts/provider";
import { type ListQuery } from "../../schemas/list";
import { type PayoutFailureCode, type PayoutStatus } from "../../schemas/payouts";
import { serializeAccountPayout } from "../../serializers/payout";
import { verificationProvider } from "../../verification/provider";
import { destinationOf, isCurrentAccount, payoutBankOf, refuseBankAccount } from "../accounts/payout-bank-account";
import { recordEvent } from "../events/record-event";
import { payoutMoves } from "../payouts/rules";

// The ISV's residuals paid to its own bank account (docs/reference.md section 19): a payout per
// positive residual, once the ISV's bank account is verified; sent and answered by the same bank as
// the merchants' payouts (lib/payouts/provider.ts), moved by the same named moves.

const event = (tx: DbOrTx, type: "payout.created" | "payout.paid" | "payout.failed", row: AccountPayoutRow) =>
  recordEvent(tx, { accountId: row.isvAccountId, type, objectId: row.id, data: serializeAccountPayout(row) });

/**
 * Pays the ISV's residuals that wait (positive, `pending`, without a payout on its way), when its bank
 * account is verified: one payout each (a residual whose payout failed gets a replacement), the
 * ledger moving it from the ISV's revenue to the platform's payout clearing, `payout.created`, and
 * the job that sends it. Under the ISV's row lock, so two callers never pay one residual twice.
 */
export async function payWaitingResiduals(tx: DbOrTx, isvAccountId: string, now = clock.now()) {
  const [isv] = await tx.select().from(accounts).where(eq(accounts.id, isvAccountId)).for("update");
  const stored = isv?.payoutBankAccount;
  const bank = isv ? payoutBankOf(isv) : null;
  if (!isv || !stored || !bank || bank.status !== "verified") return [];
  // Reported as not the ISV's: nothing is paid until an operator releases the payouts.
  if (isv.payoutsFrozenAt) return [];
  // A changed account's cooling-off: the residuals are paid when it ends (the job below).
  const holdUntil = stored.hold_until ? new Date(stored.hold_until) : null;
  if (holdUntil && now.getTime() < holdUntil.getTime()) {
    await enqueueJob(
      tx,
      "account_residuals_pay",
      { account_id: isvAccountId },
      { runAt: holdUntil, key: `account_residuals_pay_${isvAccountId}_${stored.hold_until}` },
    );
    return [];
  }
  const waiting = await tx
    .select()
    .from(residuals)
    .where(and(eq(residuals.isvAccountId, isvAccountId), eq(residuals.status, "pending"), isNull(residuals.payoutId)))
    .orderBy(asc(residuals.period));
  const made: AccountPayoutRow[] = [];
  for (const residual of waiting) {
    const [failed] = await tx
      .select({ id: accountPayouts.id })
      .from(accountPayouts)
      .where(and(eq(accountPayouts.residualId, residual.id), eq(accountPayouts.status, "failed")))
      .orderBy(desc(accountPayouts.seq))
      .limit(1);
    const payout = one(
      await tx
        .insert(accountPayouts)
        .values({
          id: createId("po"),
          isvAccountId,
          residualId: residual.id,
          replaces: failed?.id ?? null,
          amount: residual.amount,
          status: "pending",
          bankLast4: bank.last4,
          bankName: bank.bankName,
          // Sent to and settled against this account, whatever the ISV gives after.
          destination: destinationOf(stored),
        })
        .returning(),
    );
    await tx.update(residuals).set({ payoutId: payout.id }).where(eq(residuals.id, residual.id));
    await postAccountPayout(tx, payout);
    await event(tx, "payout.created", payout);
    if (payoutProvider().sends)
      await enqueueJob(
        tx,
        "account_payout_advance",
        { payout_id: payout.id, step: "send" },
        { key: `account_payout_send_${payout.id}` },
      );
    made.push(payout);
  }
  return made;
}

async function move(tx: DbOrTx, id: string, name: "send" | "pay" | "fail", set: Partial<AccountPayoutRow> = {}) {
  const { from, to } = payoutMoves[name];
  const [moved] = await tx
    .update(accountPayouts)
    .set({ ...set, status: to, updatedAt: clock.now() })
    .where(and(eq(accountPayouts.id, id), inArray(accountPayouts.status, [...from] as PayoutStatus[])))
    .returning();
  return moved ?? null;
}

/**
 * The next step of an ISV's payout, once (the job, and the sandbox's advance helper): pending → sent
 * (in_transit, arriving the next business day); in_transit → the bank's answer. Paid: its residual
 * is `paid`. Refused: the money is the ISV's revenue again, the residual waits for a payout, and the
 * ISV's bank account is `unverified` (a new one is needed: verified, it pays the residual again).
 */
export async function advanceAccountPayout(
  db: Db,
  id: string,
  options: { strict?: boolean; now?: Date; only?: "send" | "settle" } = {},
) {
  // The bank's answer is asked before the transaction, never inside one (as advancePayout).
  let answer: PayoutOutcome | undefined;
  const [before] = await db.select().from(accountPayouts).where(eq(accountPayouts.id, id));
  if (before?.status === "in_transit" && options.only !== "send") {
    const [owner] = await db.select().from(accounts).where(eq(accounts.id, before.isvAccountId));
    // The account the payout was made for (one made before destinations were kept: the current one).
    const accountNumber = before.destination
      ? decryptField(before.destination.account_number)
      : ((owner && payoutBankOf(owner)?.number) ?? null);
    answer = await payoutProvider().outcome({ amount: before.amount, accountNumber });
  }
  return db.transaction(async (tx) => {
    const [isvOf] = await tx
      .select({ isv: accountPayouts.isvAccountId })
      .from(accountPayouts)
      .where(eq(accountPayouts.id, id));
    if (!isvOf) return null;
    // The ISV's row first (as payWaitingResiduals), then the payout's.
    const isv = one(await tx.select().from(accounts).where(eq(accounts.id, isvOf.isv)).for("update"));
    const payout = one(await tx.select().from(accountPayouts).where(eq(accountPayouts.id, id)).for("update"));
    const step = payout.status === "pending" ? "send" : payout.status === "in_transit" ? "settle" : null;
    if (options.only && step !== options.only) return null;
    if (!step) {
      if (options.strict)
        throw invalidState(`Cannot advance: the payout is ${payout.status}, expected pending or in_transit`);
      return null;
    }
    const now = options.now ?? clock.now();
    // Frozen ("this wasn't us"): nothing leaves; the operator's release sends what waits.
    if (step === "send" && isv.payoutsFrozenAt) {
      if (options.strict)
        throw invalidState("Cannot send: the ISV's payouts are frozen until the operator releases them");
      return null;
    }
    if (step === "send") {
      const arrivalDate = nextBusinessDay(now);
      const sent = await move(tx, id, "send", { arrivalDate });
      if (sent && payoutProvider().sends)
        await enqueueJob(
          tx,
          "account_payout_advance",
          { payout_id: id, step: "settle" },
          { runAt: new Date(`${arrivalDate}T00:00:00Z`), key: `account_payout_settle_${id}` },
        );
      return sent;
    }
    // Sent since it was read: the bank is asked on the next advance.
    if (!answer) {
      if (options.strict) throw invalidState("The payout moved while it was being advanced; advance it again");
      return null;
    }
    const outcome = answer;
    if (outcome.status === "paid") {
      const paid = await move(tx, id, "pay");
      if (!paid) return null;
      await postAccountPayoutOutcome(tx, paid, "paid");
      await tx.update(residuals).set({ status: "paid" }).where(eq(residuals.id, paid.residualId));
      await event(tx, "payout.paid", paid);
      return paid;
    }
    return failAccountPayout(tx, isv, payout, outcome.code);
  });
}

async function failAccountPayout(tx: DbOrTx, isv: AccountRow, payout: AccountPayoutRow, code: PayoutFailureCode) {
  const failed = await move(tx, payout.id, "fail", { failureCode: code });
  if (!failed) return null;
  await postAccountPayoutOutcome(tx, failed, "failed");
  await tx.update(residuals).set({ payoutId: null }).where(eq(residuals.id, failed.residualId));
  // The refused account is no longer where money goes; an account given since is not the one refused.
  if (!failed.destination || isCurrentAccount(isv, failed.destination))
    await refuseBankAccount(tx, failed.isvAccountId, code);
  await event(tx, "payout.failed", failed);
  log.warn({ payout_id: failed.id, isv_account_id: failed.isvAccountId, code }, "residual payout failed");
  return failed;
}

/** The job: one step of one ISV payout. */
export async function runAccountPayoutAdvance(db: Db, { payout_id, step }: JobPayload<"account_payout_advance">) {
  await advanceAccountPayout(db, payout_id, { only: step });
}

/** An ISV's own payout (another account's id: not found). */
export async function findAccountPayout(db: DbOrTx, isvAccountId: string, id: string) {
  const [row] = await db
    .select()
    .from(accountPayouts)
    .where(and(eq(accountPayouts.isvAccountId, isvAccountId), eq(accountPayouts.id, id)));
  if (!row) throw notFound("payout", id);
  return row;
}

/** GET /v1/payouts?recipient=account: the ISV's own payouts, newest first. */
export function listAccountPayouts(db: DbOrTx, isvAccountId: string, query: ListQuery & { status?: PayoutStatus }) {
  const filters: SQL[] = [eq(accountPayouts.isvAccountId, isvAccountId)];
  if (query.status) filters.push(eq(accountPayouts.status, query.status));
  return cursorPage(query, {
    noun: "payout",
    seq: accountPayouts.seq,
    filters,
    positionOf: async (id) => {
      const [row] = await db
        .select({ seq: accountPayouts.seq })
        .from(accountPayouts)
        .where(and(eq(accountPayouts.isvAccountId, isvAccountId), eq(accountPayouts.id, id)));
      return row?.seq ?? null;
    },
    select: (where, orderBy, limit) => db.select().from(accountPayouts).where(where).orderBy(orderBy).limit(limit),
  });
}

/**
 * The job: the provider's answer about the ISV's bank account (the one given at `given_at`: a later
 * one has its own job). Verified, the residuals that wait are paid to it.
 */
export async function runAccountBankCheck(db: Db, { account_id, given_at }: JobPayload<"account_bank_check">) {
  const [isv] = await db.select().from(accounts).where(eq(accounts.id, account_id));
  const stored = isv?.payoutBankAccount;
  if (!isv || !stored || stored.created_at !== given_at || stored.status !== "pending") return;
  const outcome = await verificationProvider().check({
    type: "bank_account",
    subject: "merchant",
    application: {
      legal_business_name: isv.name,
      bank_account: {
        routing_number: stored.routing_number,
        account_number: decryptField(stored.account_number),
        account_holder_name: stored.account_holder_name,
      },
    },
  });
  await db.transaction(async (tx) => {
    const [now] = await tx.select().from(accounts).where(eq(accounts.id, account_id)).for("update");
    const current = now?.payoutBankAccount;
    if (!current || current.created_at !== given_at || current.status !== "pending") return;
    const verified = outcome.status === "verified";
    await tx
      .update(accounts)
      .set({
        payoutBankAccount: {
          ...current,
          status: verified ? "verified" : "unverified",
          status_message: verified
            ? null
            : `${outcome.message ?? "The bank account could not be confirmed."} Give another bank account, or ask the platform's operators to confirm this one.`,
          verified_at: verified ? clock.now().toISOString() : null,
        },
      })
      .where(eq(accounts.id, account_id));
    if (verified) await payWaitingResiduals(tx, account_id);
    log.info({ account_id, status: verified ? "verified" : "unverified" }, "ISV bank account checked");
  });
}

/** The job: a changed bank account's hold is over, the residuals that wait are paid (unless frozen, or held again). */
export async function runAccountResidualsPay(db: Db, { account_id }: JobPayload<"account_residuals_pay">) {
  await db.transaction((tx) => payWaitingResiduals(tx, account_id));
}

/** After the operator's release: the payouts made before the freeze and not sent are sent now, and the residuals that wait are paid. */
export async function resumeAccountPayouts(tx: DbOrTx, isvAccountId: string) {
  const waiting = await tx
    .select({ id: accountPayouts.id })
    .from(accountPayouts)
    .where(and(eq(accountPayouts.isvAccountId, isvAccountId), eq(accountPayouts.status, "pending")));
  if (payoutProvider().sends)
    for (const { id } of waiting)
      await enqueueJob(
        tx,
        "account_payout_advance",
        { payout_id: id, step: "send" },
        { key: `account_payout_send_${id}_released_${clock.ms()}` },
      );
  return payWaitingResiduals(tx, isvAccountId);
}
