import { eq } from "drizzle-orm";

import { clock } from "../../clock";
import { one } from "../../db/one";
import { payouts } from "../../db/schema";
import { type Db } from "../../db/types";
import { invalidState } from "../../errors";
import { type JobPayload } from "../../jobs/job-types";
import { businessDaysAfter, isoDay } from "../../payouts/business-days";
import { type RailAnswer } from "../../payouts/instant-rail";
import { type PayoutOutcome, payoutProvider } from "../../payouts/provider";
import { askRail, refuseInstant } from "./instant";
import { afterFailed, afterPaid, afterSent, bankWhenSent, destinationNumber, lockOwner, sendRefusal } from "./owners";
import { merchantPayout } from "./recipient";
import { nextMove } from "./rules";
import { payoutSettingsOf } from "./settings";
import { movePayouts, payoutEvent, queueAdvance } from "./status";

/** How soon the rail's bank answers an instant payout (sandbox: paid within 30 s). */
export const INSTANT_ANSWER_MS = 2_000;

/**
 * The next step of a payout's life, to either recipient, once (the job, and the sandbox's advance
 * helper): pending → sent (in_transit, arriving the merchant's `delay_days` business days later); in_transit → the bank's
 * answer (paid, or failed). Answers the payout as moved, or null when there was nothing to do (held,
 * paid, failed, frozen, or another worker moved it first). `strict`: 409 instead of null (the
 * helper's caller asked for a move); `only`: the job's step (a send job never asks the bank's answer
 * of a payout already sent). What differs by recipient is in ./owners.ts.
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
  let rail: RailAnswer | undefined;
  const [before] = await db.select().from(payouts).where(eq(payouts.id, payoutId));
  if (before?.status === "in_transit" && options.only !== "send")
    answer = await payoutProvider().outcome({
      amount: before.amount,
      accountNumber: await destinationNumber(db, before),
    });
  // An instant payout's rail is asked before it is recorded as sent (its id the rail's reference).
  if (before?.status === "pending" && before.method === "instant" && options.only !== "settle")
    rail = await askRail(db, before, () => destinationNumber(db, before));
  return db.transaction(async (tx) => {
    // The owner's row first, then the payout's: the order of every change to an owner's payouts.
    const [whose] = await tx
      .select({ recipient: payouts.recipient, merchantId: payouts.merchantId, isvAccountId: payouts.isvAccountId })
      .from(payouts)
      .where(eq(payouts.id, payoutId));
    if (!whose) return null;
    const owner = await lockOwner(tx, whose);
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
    if (step === "send") {
      const refusal = sendRefusal(owner);
      if (refusal) {
        if (options.strict) throw invalidState(refusal);
        return null;
      }
      const now = options.now ?? clock.now();
      const instant = payout.method === "instant";
      if (instant && owner.kind === "merchant") {
        if (!rail) {
          if (options.strict) throw invalidState("The payout moved while it was being advanced; advance it again");
          return null;
        }
        if (rail.status === "refused") return refuseInstant(tx, owner.merchant, merchantPayout(payout), rail.reason);
      }
      // It arrives the merchant's `delay_days` business days after it is sent (docs/reference.md
      // section 20); an instant payout the same day, in minutes.
      const delay = payout.merchantId ? (await payoutSettingsOf(tx, payout.merchantId)).schedule.delay_days : 1;
      const arrivalDate = isoDay(instant ? now : businessDaysAfter(now, delay));
      const sent = one(
        await movePayouts(tx, "send", eq(payouts.id, payout.id), {
          arrivalDate,
          // A push to card goes to its card (the payout names it), not to the bank account.
          ...(payout.rail === "push_to_card" ? {} : bankWhenSent(owner)),
        }),
      );
      await afterSent(tx, sent, now);
      // The bank answers on the arrival date (00:00 UTC), an instant payout's in seconds; the
      // sandbox's helper may ask it sooner.
      if (payoutProvider().sends)
        await queueAdvance(
          tx,
          sent,
          "settle",
          instant ? new Date(now.getTime() + INSTANT_ANSWER_MS) : new Date(`${arrivalDate}T00:00:00Z`),
        );
      return sent;
    }
    // Sent since it was read: the bank is asked on the next advance.
    if (!answer) {
      if (options.strict) throw invalidState("The payout moved while it was being advanced; advance it again");
      return null;
    }
    if (answer.status === "paid") {
      const paid = one(await movePayouts(tx, "pay", eq(payouts.id, payout.id)));
      await afterPaid(tx, paid);
      await payoutEvent(tx, "payout.paid", paid);
      return paid;
    }
    const failed = one(await movePayouts(tx, "fail", eq(payouts.id, payout.id), { failureCode: answer.code }));
    await payoutEvent(tx, "payout.failed", failed);
    await afterFailed(tx, owner, failed, answer.code);
    return failed;
  });
}

/** The job: one step of one payout (either recipient; `account_payout_advance` is an older release's name). */
export async function runPayoutAdvance(db: Db, { payout_id, step }: JobPayload<"payout_advance">) {
  await advancePayout(db, payout_id, { only: step });
}
