import { and, eq, isNotNull } from "drizzle-orm";
import type { Db } from "../../db/client";
import { charges, merchants } from "../../db/schema";
import { achProcessor } from "../../processors";
import { recordEvent } from "../events/record-event";
import { serializeCharge } from "../../serializers/charge";
import { refundsOfCharges } from "../refunds/refunds-of-charges";
import { log } from "../../log";
import { enqueueJob, type JobPayload } from "../../jobs/job-types";

/**
 * How long after a settlement the ACH processor is asked for returns. Real banks answer within two
 * banking days (a real processor reports returns as they come); the sandbox answers at once, so the
 * job runs a few seconds after the settlement.
 */
export const ACH_RETURN_DELAY_MS = 2_000;
/** How long after the returns the processor is asked whether a bank reversed one (sandbox: 5 s). */
export const ACH_REVERSAL_DELAY_MS = 5_000;

/**
 * The `ach_returns` job: of a settlement's ACH charges, those the processor says were returned
 * become RETURNED (a conditional move from SETTLED: a second run changes nothing), with
 * `charge.returned`. The next settlement takes their amounts back; the statement charges the
 * merchant's `return_fee_fixed` for each.
 */
export async function checkAchReturns(db: Db, { settlement_id }: JobPayload<"ach_returns">) {
  const settled = await db
    .select()
    .from(charges)
    .where(
      and(eq(charges.settlementId, settlement_id), eq(charges.paymentMethod, "ach"), eq(charges.status, "SETTLED"), isNotNull(charges.processorReference)),
    );
  if (settled.length === 0) return;
  const returns = await achProcessor().returns(settled.map((c) => c.processorReference!));
  const byReference = new Map(returns.map((r) => [r.reference, r.reason]));
  for (const charge of settled) {
    const reason = byReference.get(charge.processorReference!);
    if (!reason) continue;
    await db.transaction(async (tx) => {
      const [moved] = await tx
        .update(charges)
        .set({ status: "RETURNED", returnedAt: new Date(), failureReason: reason })
        .where(and(eq(charges.id, charge.id), eq(charges.status, "SETTLED")))
        .returning();
      if (!moved) return;
      const [merchant] = await tx.select().from(merchants).where(eq(merchants.id, moved.merchantId));
      const refunds = await refundsOfCharges(tx, [moved.id]);
      await recordEvent(tx, {
        accountId: moved.isvAccountId,
        type: "charge.returned",
        objectId: moved.id,
        data: serializeCharge(moved, merchant!, refunds.get(moved.id)),
      });
    });
    log.info({ charge_id: charge.id, reason }, "ACH charge returned");
  }
  // A bank may reverse its return later (a return sent in error): asked once more.
  if (returns.length > 0)
    await enqueueJob(
      db,
      "ach_return_reversals",
      { settlement_id },
      { runAt: new Date(Date.now() + ACH_REVERSAL_DELAY_MS), key: `ach_return_reversals_${settlement_id}` },
    );
}

/**
 * The `ach_return_reversals` job: of a settlement's RETURNED charges, those whose return the bank
 * reversed are SETTLED again (`return_reversed_at`, `charge.return_reversed`; a conditional move).
 * A return the platform already took back is paid back by the next settlement; the statement
 * charges `return_reversal_fee`.
 */
export async function checkAchReturnReversals(db: Db, { settlement_id }: JobPayload<"ach_return_reversals">) {
  const returned = await db
    .select()
    .from(charges)
    .where(
      and(eq(charges.settlementId, settlement_id), eq(charges.paymentMethod, "ach"), eq(charges.status, "RETURNED"), isNotNull(charges.processorReference)),
    );
  if (returned.length === 0) return;
  const reversed = new Set(await achProcessor().reversals(returned.map((c) => c.processorReference!)));
  for (const charge of returned) {
    if (!reversed.has(charge.processorReference!)) continue;
    await db.transaction(async (tx) => {
      const [moved] = await tx
        .update(charges)
        .set({ status: "SETTLED", returnReversedAt: new Date(), failureReason: null })
        .where(and(eq(charges.id, charge.id), eq(charges.status, "RETURNED")))
        .returning();
      if (!moved) return;
      const [merchant] = await tx.select().from(merchants).where(eq(merchants.id, moved.merchantId));
      const refunds = await refundsOfCharges(tx, [moved.id]);
      await recordEvent(tx, {
        accountId: moved.isvAccountId,
        type: "charge.return_reversed",
        objectId: moved.id,
        data: serializeCharge(moved, merchant!, refunds.get(moved.id)),
      });
    });
    log.info({ charge_id: charge.id }, "ACH return reversed");
  }
}
