import { eq } from "drizzle-orm";

import { clock } from "../../clock";
import { one } from "../../db/one";
import { type MerchantRow, merchants, type PayoutRow, payouts } from "../../db/schema";
import { type Db, type DbOrTx } from "../../db/types";
import { invalidState } from "../../errors";
import { type JobPayload } from "../../jobs/job-types";
import { postPayoutOutcome, postPayoutSent } from "../../ledger/payout-movements";
import { log } from "../../log";
import { nextBusinessDay } from "../../payouts/business-days";
import { type PayoutOutcome, payoutProvider } from "../../payouts/provider";
import type { PayoutFailureCode } from "../../schemas/payouts";
import { askForNewBankAccount } from "../merchants/ask-for-new-bank-account";
import { nextMove } from "./rules";
import { bankOf, holdPayouts, movePayouts, payoutEvent, queueAdvance } from "./status";

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
  // The bank's answer to a payout on its way is asked before the transaction, never inside one
  // (docs/reference.md section 10, "Calls to the processor"); the transaction records it only if the
  // payout is still where it was when asked.
  let answer: PayoutOutcome | undefined;
  const [before] = await db.select().from(payouts).where(eq(payouts.id, payoutId));
  if (before?.status === "in_transit" && options.only !== "send") {
    const [owner] = await db.select().from(merchants).where(eq(merchants.id, before.merchantId));
    if (owner) answer = await payoutProvider().outcome({ amount: before.amount, accountNumber: bankOf(owner).number });
  }
  return db.transaction(async (tx) => {
    // The merchant's row first, then the payout's: the order of every change to a merchant's payouts
    // (reconsiderPayouts runs under the merchant's lock), so the two never wait on each other.
    const [owner] = await tx.select({ merchantId: payouts.merchantId }).from(payouts).where(eq(payouts.id, payoutId));
    if (!owner) return null;
    const merchant = one(await tx.select().from(merchants).where(eq(merchants.id, owner.merchantId)).for("update"));
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
    const now = options.now ?? clock.now();
    if (step === "send") {
      const bank = bankOf(merchant);
      const arrivalDate = nextBusinessDay(now);
      const sent = one(
        await movePayouts(tx, "send", eq(payouts.id, payout.id), {
          arrivalDate,
          bankLast4: bank.last4,
          bankName: bank.name,
        }),
      );
      // Its money leaves the merchant's available balance now, on its way to the bank.
      await postPayoutSent(tx, sent, now);
      // The bank answers on the arrival date (00:00 UTC); the sandbox's helper may ask it sooner.
      if (payoutProvider().sends) await queueAdvance(tx, sent, "settle", new Date(`${arrivalDate}T00:00:00Z`));
      return sent;
    }
    // Sent since it was read: the bank is asked on the next advance.
    if (!answer) {
      if (options.strict) throw invalidState("The payout moved while it was being advanced; advance it again");
      return null;
    }
    const outcome = answer;
    if (outcome.status === "paid") {
      const paid = one(await movePayouts(tx, "pay", eq(payouts.id, payout.id)));
      await postPayoutOutcome(tx, paid, "paid");
      await payoutEvent(tx, "payout.paid", paid);
      return paid;
    }
    return failPayout(tx, merchant, payout, outcome.code);
  });
}

/**
 * The bank refused a payout: failed with its code; the merchant's payouts not yet sent wait
 * (`payout_failed`); the merchant is asked for a new bank account (requirement
 * `merchant.bank_account`, code `payout_failed`: the home shows it) and told by e-mail.
 */
async function failPayout(tx: DbOrTx, merchant: MerchantRow, payout: PayoutRow, code: PayoutFailureCode) {
  const failed = one(await movePayouts(tx, "fail", eq(payouts.id, payout.id), { failureCode: code }));
  await postPayoutOutcome(tx, failed, "failed");
  await payoutEvent(tx, "payout.failed", failed);
  const updated = await askForNewBankAccount(tx, merchant, { code, amount: payout.amount });
  await holdPayouts(tx, updated, "payout_failed");
  log.warn({ payout_id: payout.id, merchant_id: merchant.id, code }, "payout failed");
  return failed;
}

/** The job: one step of one payout. */
export async function runPayoutAdvance(db: Db, { payout_id, step }: JobPayload<"payout_advance">) {
  await advancePayout(db, payout_id, { only: step });
}
