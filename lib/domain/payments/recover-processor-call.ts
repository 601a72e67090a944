import { eq, sql } from "drizzle-orm";

import { clock } from "../../clock";
import { charges, processorCalls, refunds } from "../../db/schema";
import { type Db } from "../../db/types";
import { type JobPayload } from "../../jobs/job-types";
import { log } from "../../log";
import { achProcessor, paymentProcessor, processorFor } from "../../processors";
import { recordRefund } from "../refunds/record-refund";
import { claimCall } from "./processor-calls";

/**
 * The job `processor_call_recover` (docs/reference.md section 10, "Calls to the processor"): a call
 * still `started` a minute after it was written lost its answer or its record (a timeout, an error, a
 * crash). The processor is asked what the call's key did:
 * - a refund: its answer is recorded (succeeded, or failed and the amount given back); a refund the
 *   processor never received is asked again under the same key, which it does once;
 * - an authorization or a debit: nothing recorded a charge for it, so whatever it approved is voided
 *   (a technical cancel by the key) and the call is `cancelled`; the customer was told it failed.
 * A processor that does not answer fails the job, which tries again later (with backoff).
 */
export async function recoverProcessorCall(db: Db, { call_id }: JobPayload<"processor_call_recover">) {
  const [call] = await db.select().from(processorCalls).where(eq(processorCalls.id, call_id));
  if (!call) return;
  // Cancelled with an approval not yet voided (the void failed): void it again.
  if (call.status === "cancelled" && call.outcome?.approved && !call.voidedAt)
    return voidAuthorization(db, call.id, call.kind);
  if (call.status !== "started") return;
  // The job's asks, counted (a call the request recorded at once was asked once and has none).
  await db
    .update(processorCalls)
    .set({ attempts: sql`${processorCalls.attempts} + 1`, updatedAt: clock.now() })
    .where(eq(processorCalls.id, call.id));
  if (call.kind === "refund") {
    const [refund] = await db.select().from(refunds).where(eq(refunds.id, call.subjectId));
    const [charge] = refund ? await db.select().from(charges).where(eq(charges.id, refund.chargeId)) : [];
    if (!refund || !charge) throw new Error(`processor call ${call.id}: its refund or charge is missing`);
    const processor = processorFor(charge.paymentMethod);
    const known = await processor.lookup(call.id);
    const answer = known.found
      ? known.approved
        ? ({ ok: true, reference: known.reference } as const)
        : ({ ok: false, reason: known.reason } as const)
      : await processor.refund({
          reference: charge.processorReference ?? "",
          amount: refund.amount,
          idempotencyKey: call.id,
        });
    const recorded = await recordRefund(db, call.id, answer);
    if (recorded) log.info({ refund_id: recorded.id, status: recorded.status }, "pending refund recovered");
    return;
  }
  const processor = call.kind === "debit" ? achProcessor() : paymentProcessor();
  const known = await processor.lookup(call.id);
  const outcome = !known.found
    ? null
    : known.approved
      ? { approved: true as const, reference: known.reference }
      : { approved: false as const, reason: known.reason };
  // Claimed before the void: a request that records its charge after this finds the call taken and
  // records nothing (it voids too: a cancel by the same key is done once).
  const cancelled = await claimCall(db, call.id, "cancelled", outcome);
  if (!cancelled) return;
  if (outcome?.approved) await voidAuthorization(db, call.id, call.kind);
  log.warn(
    { processor_call_id: call.id, payment_request_id: call.subjectId, voided: outcome?.approved ?? false },
    "authorization without a recorded charge given up",
  );
}

/**
 * Voids what an authorization or debit approved (a cancel by its key). A processor that fails here
 * fails the job, which tries again: the call is `cancelled` with an approved outcome until then, and
 * the retry voids it again (../../processors/processor.ts: once per key).
 */
export async function voidAuthorization(db: Db, callId: string, kind: string) {
  const processor = kind === "debit" ? achProcessor() : paymentProcessor();
  await processor.cancel(callId);
  await db.update(processorCalls).set({ voidedAt: clock.now() }).where(eq(processorCalls.id, callId));
}
