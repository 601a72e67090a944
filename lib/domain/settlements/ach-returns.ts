import { and, eq, inArray, isNotNull, isNull, sql } from "drizzle-orm";

import { clock } from "../../clock";
import { one } from "../../db/one";
import { charges, merchants } from "../../db/schema";
import { type Db } from "../../db/types";
import { enqueueJob, type JobPayload } from "../../jobs/job-types";
import { postAchReturn } from "../../ledger/payment-movements";
import { sourcesTakenBy } from "../../ledger/reads";
import { log } from "../../log";
import { achProcessor } from "../../processors";
import { serializeChargeForIsv } from "../../serializers/charge";
import { getAccount } from "../accounts/get-account";
import { costProfileOf } from "../accounts/isv-facts";
import { withLedgerFact } from "../charges/ledger-charge";
import { refundsOfCharges } from "../charges/refunds-of-charges";
import { chargeMoves, heldAmount, moveCharges } from "../charges/status";
import { recordEvent } from "../events/record-event";

/**
 * How long after a settlement the ACH processor is asked for returns. Real banks answer within two
 * banking days (a real processor reports returns as they come); the sandbox answers at once, so the
 * job runs a few seconds after the settlement.
 */
export const ACH_RETURN_DELAY_MS = 2_000;
/** How long after the returns the processor is asked whether a bank reversed one (sandbox: 5 s). */
export const ACH_REVERSAL_DELAY_MS = 5_000;

type AchAnswer = {
  move: "returnCharge" | "reverseReturn";
  /** The processor's answer: the references it names, each with the columns its move sets. */
  ask: (references: string[]) => Promise<Map<string, Partial<typeof charges.$inferInsert>>>;
};

/**
 * What the ACH processor says about a settlement's ACH charges that the move starts from: each charge
 * it names makes the move (a conditional update (a second run changes nothing), with its event, one
 * transaction per charge. Answers how many moved.
 */
async function applyAchAnswer(db: Db, settlementId: string, answer: AchAnswer) {
  const candidates = await db
    .select()
    .from(charges)
    .where(
      and(
        sql`${charges.id} in (${sourcesTakenBy(settlementId, "charge")})`,
        eq(charges.paymentMethod, "ach"),
        inArray(charges.status, [...chargeMoves[answer.move].from]),
        isNotNull(charges.processorReference),
      ),
    );
  // Each has a reference (the query asks for it; its type does not know).
  const referenced = candidates.flatMap((c) =>
    c.processorReference ? [{ id: c.id, reference: c.processorReference }] : [],
  );
  if (referenced.length === 0) return 0;
  const named = await answer.ask(referenced.map((c) => c.reference));
  let moved = 0;
  for (const charge of referenced) {
    const set = named.get(charge.reference);
    if (!set) continue;
    if (await applyAchMove(db, charge.id, answer.move, set)) moved++;
  }
  return moved;
}

/**
 * One ACH debit returned by its bank, or its return reversed (the processor's answer, or its
 * callback): the move (once: null when the charge is not in a state it starts from), what the
 * merchant still held of it taken back or paid back in the ledger, and its event, in one transaction.
 */
export async function applyAchMove(
  db: Db,
  chargeId: string,
  move: "returnCharge" | "reverseReturn",
  set: Partial<typeof charges.$inferInsert>,
) {
  const applied = await db.transaction(async (tx) => {
    // A debit is returned once: a charge whose return its bank reversed is not returned again (a
    // processor's answer given twice, or a job run again, moves nothing).
    const [moved] = await moveCharges(
      tx,
      move,
      and(eq(charges.id, chargeId), move === "returnCharge" ? isNull(charges.returnedAt) : undefined),
      set,
    );
    if (!moved) return null;
    // What the return cost the platform (docs/reference.md section 19: the ISV's eyes only).
    const row =
      move === "returnCharge"
        ? one(
            await tx
              .update(charges)
              .set({ returnCosts: costProfileOf(await getAccount(tx, moved.isvAccountId)).ach.return_cost })
              .where(eq(charges.id, moved.id))
              .returning(),
          )
        : moved;
    await postAchReturn(tx, row, heldAmount(row), move === "reverseReturn");
    const merchant = one(await tx.select().from(merchants).where(eq(merchants.id, row.merchantId)));
    const refunds = await refundsOfCharges(tx, [row.id]);
    await recordEvent(tx, {
      accountId: row.isvAccountId,
      type: move === "returnCharge" ? "charge.returned" : "charge.return_reversed",
      objectId: row.id,
      data: serializeChargeForIsv(await withLedgerFact(tx, row), merchant, refunds.get(row.id)),
    });
    return row;
  });
  if (applied) log.info({ charge_id: chargeId, move }, "ACH answer applied");
  return applied;
}

/**
 * The `ach_returns` job: of a settlement's ACH charges, those the processor says were returned
 * become RETURNED (`returned_at`, `failure_reason`, `charge.returned`). The next settlement takes
 * their amounts back; the statement charges the merchant's `return_fee_fixed` for each. The others
 * cleared (`ach_cleared_at`): from then on they can be refunded (docs/reference.md section 13).
 */
export async function checkAchReturns(db: Db, { settlement_id }: JobPayload<"ach_returns">) {
  const moved = await applyAchAnswer(db, settlement_id, {
    move: "returnCharge",
    ask: async (references) =>
      new Map(
        (await achProcessor().returns(references)).map((r) => [
          r.reference,
          { returnedAt: clock.now(), failureReason: r.reason },
        ]),
      ),
  });
  // The rest of the settlement's ACH debits cleared: their banks did not return them, so they can be refunded.
  await db
    .update(charges)
    .set({ achClearedAt: clock.now() })
    .where(
      and(
        sql`${charges.id} in (${sourcesTakenBy(settlement_id, "charge")})`,
        eq(charges.paymentMethod, "ach"),
        eq(charges.status, "SETTLED"),
        isNull(charges.achClearedAt),
      ),
    );
  // A bank may reverse its return later (a return sent in error): asked once more.
  if (moved > 0)
    await enqueueJob(
      db,
      "ach_return_reversals",
      { settlement_id },
      { runAt: new Date(clock.ms() + ACH_REVERSAL_DELAY_MS), key: `ach_return_reversals_${settlement_id}` },
    );
}

/**
 * The `ach_return_reversals` job: of a settlement's RETURNED charges, those whose return the bank
 * reversed are SETTLED again (`return_reversed_at`, `charge.return_reversed`). A return the
 * platform already took back is paid back by the next settlement; the statement charges
 * `return_reversal_fee`.
 */
export async function checkAchReturnReversals(db: Db, { settlement_id }: JobPayload<"ach_return_reversals">) {
  await applyAchAnswer(db, settlement_id, {
    move: "reverseReturn",
    ask: async (references) =>
      new Map(
        (await achProcessor().reversals(references)).map((r) => [
          r,
          { returnReversedAt: clock.now(), failureReason: null, achClearedAt: clock.now() },
        ]),
      ),
  });
}
