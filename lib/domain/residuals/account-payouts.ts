import { and, asc, desc, eq, isNull } from "drizzle-orm";

import { clock } from "../../clock";
import { decryptField } from "../../crypto/field-encryption";
import { one } from "../../db/one";
import { type AccountPayoutRow, accounts, payouts, residuals } from "../../db/schema";
import { type Db, type DbOrTx } from "../../db/types";
import { createId } from "../../ids";
import { enqueueJob, type JobPayload } from "../../jobs/job-types";
import { log } from "../../log";
import { payoutProvider } from "../../payouts/provider";
import { verificationProvider } from "../../verification/provider";
import { destinationOf, payoutBankOf } from "../accounts/payout-bank-account";
import { accountPayout } from "../payouts/recipient";
import { payoutSettingsOf } from "../payouts/settings";
import { payoutEvent, queueAdvance } from "../payouts/status";

// The ISV's residuals paid to its own bank account (docs/reference.md section 19): a payout per
// positive residual, once the ISV's bank account is verified; a payout like a merchant's (the same
// table, recipient `account`), sent, answered and moved by the same machine
// (lib/domain/payouts/advance-payout.ts).

/**
 * Pays the ISV's residuals that wait (positive, `pending`, without a payout on its way), when its bank
 * account is verified: one payout each (a residual whose payout failed gets a replacement),
 * `payout.created`, and the job that sends it (the ledger moves it out of the ISV's revenue when it
 * is sent). Under the ISV's row lock, so two callers never pay one residual twice.
 */
export async function payWaitingResiduals(tx: DbOrTx, isvAccountId: string, now = clock.now()) {
  const [isv] = await tx.select().from(accounts).where(eq(accounts.id, isvAccountId)).for("update");
  const stored = isv?.payoutBankAccount;
  const bank = isv ? payoutBankOf(isv) : null;
  if (!isv || !stored || !bank || bank.status !== "verified") return [];
  // Reported as not the ISV's: nothing is paid until an operator releases the payouts.
  if ((await payoutSettingsOf(tx, isv.id)).frozenAt) return [];
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
      .select({ id: payouts.id })
      .from(payouts)
      .where(and(eq(payouts.residualId, residual.id), eq(payouts.status, "failed")))
      .orderBy(desc(payouts.seq))
      .limit(1);
    const payout = accountPayout(
      one(
        await tx
          .insert(payouts)
          .values({
            id: createId("po"),
            recipient: "account",
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
      ),
    );
    await tx.update(residuals).set({ payoutId: payout.id }).where(eq(residuals.id, residual.id));
    await payoutEvent(tx, "payout.created", payout);
    if (payoutProvider().sends) await queueAdvance(tx, payout, "send");
    made.push(payout);
  }
  return made;
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
    .select({ id: payouts.id })
    .from(payouts)
    .where(
      and(eq(payouts.isvAccountId, isvAccountId), eq(payouts.recipient, "account"), eq(payouts.status, "pending")),
    );
  if (payoutProvider().sends)
    for (const row of waiting) await queueAdvance(tx, row, "send", undefined, `_released_${clock.ms()}`);
  return payWaitingResiduals(tx, isvAccountId);
}
