import { and, eq, sql } from "drizzle-orm";

import { retryOnConflict } from "../../db/errors";
import { one } from "../../db/one";
import { charges, type ProcessorCallRow, processorCalls, type RefundRow, refunds } from "../../db/schema";
import { type Db } from "../../db/types";
import { AppError, invalid } from "../../errors";
import { createId } from "../../ids";
import { log } from "../../log";
import { formatCents } from "../../money";
import { processorFor } from "../../processors";
import type { refundReasons } from "../../schemas/payment-values";
import { findCharge } from "../charges/find-charge";
import { lockMerchantShared } from "../charges/lock-order";
import { assertRefundable, refundable } from "../charges/status";
import { makeCall, startCall } from "../payments/processor-calls";
import type { Scope } from "../scope";
import { recordRefund } from "./record-refund";

/**
 * POST /v1/refunds (docs/reference.md section 10): part or all of a charge, in the three steps of
 * every call to the processor (../payments/processor-calls.ts):
 *   1. one transaction takes the amount on the charge (a conditional update that holds only while the
 *      total stays within `amount_captured`, so racing refunds never refund more than was captured)
 *      and writes the refund `pending` with its call;
 *   2. the processor is asked, outside any transaction, with the call's id as idempotency key;
 *   3. its answer is recorded (./record-refund.ts): `succeeded`, or declined (400 `refund_failed`,
 *      nothing refunded).
 * No answer in time, or a record that could not be written: the refund is answered `pending`, and
 * the recovery job asks the processor by the key and finishes it (`refund.created` or `refund.failed`).
 * Transactions that lose a race to a settlement are run again, never answered 500.
 */
export async function createRefund(
  db: Db,
  scope: Scope,
  input: { charge_id: string; amount?: number; reason?: (typeof refundReasons)[number] },
  options: {
    requestKey?: string;
    /** The most this caller may refund (a `support` member: the owner's limit). */ maxAmount?: number;
  } = {},
) {
  const found = await findCharge(db, scope, input.charge_id);
  const processor = processorFor(found.paymentMethod);
  // A retry of a request that died after its intent (the same Idempotency-Key): that refund, resumed.
  const earlier = options.requestKey ? await refundOfRequest(db, options.requestKey) : undefined;
  if (earlier) return resumeRefund(db, earlier, processor, found.processorReference ?? "");
  assertRefundable(found);
  // Default: what is left now. If another refund lands first, the conditional update below refuses.
  const amount = input.amount ?? found.amountCaptured - found.amountRefunded;
  if (amount <= 0) throw invalid("charge_id", `Charge ${found.id} is already fully refunded`, "refund_exceeds_charge");
  if (options.maxAmount !== undefined && amount > options.maxAmount)
    throw new AppError(
      "permission_denied",
      `Your role (support) may refund up to ${formatCents(options.maxAmount, "en-US")}: ask an owner or an admin for more`,
      { param: "amount" },
    );
  const { refund, call, reference } = await retryOnConflict(() =>
    db.transaction(async (tx) => {
      await lockMerchantShared(tx, found.merchantId);
      const [charge] = await tx
        .update(charges)
        .set({ amountRefunded: sql`${charges.amountRefunded} + ${amount}` })
        .where(
          and(
            eq(charges.id, found.id),
            refundable,
            sql`${charges.amountRefunded} + ${amount} <= ${charges.amountCaptured}`,
          ),
        )
        .returning();
      if (!charge) {
        const [now] = await tx.select().from(charges).where(eq(charges.id, found.id));
        // Moved since it was read (disputed, returned): that state's reason; else the amount is too much.
        if (now) assertRefundable(now);
        const left = (now?.amountCaptured ?? 0) - (now?.amountRefunded ?? 0);
        throw invalid(
          input.amount === undefined ? "charge_id" : "amount",
          left === 0
            ? `Charge ${found.id} is already fully refunded`
            : `The refund (${amount}) is more than what is left to refund on ${found.id} (${left})`,
          "refund_exceeds_charge",
        );
      }
      const pending = one(
        await tx
          .insert(refunds)
          .values({
            id: createId("re"),
            isvAccountId: charge.isvAccountId,
            merchantId: charge.merchantId,
            chargeId: charge.id,
            amount,
            reason: input.reason ?? null,
            status: "pending",
            requestKey: options.requestKey ?? null,
          })
          .returning(),
      );
      const started = await startCall(tx, {
        kind: "refund",
        processor: processor.name,
        amount,
        isvAccountId: charge.isvAccountId,
        merchantId: charge.merchantId,
        subjectId: pending.id,
      });
      return { refund: pending, call: started, reference: charge.processorReference ?? "" };
    }),
  );
  return finishRefund(db, refund, call, processor, reference);
}

const refundOfRequest = async (db: Db, requestKey: string) =>
  (await db.select().from(refunds).where(eq(refunds.requestKey, requestKey)))[0];

/** A refund begun by an earlier attempt of the same request: finished if its call is still open, else as it is. */
async function resumeRefund(db: Db, refund: RefundRow, processor: Processor, reference: string) {
  const [call] = await db
    .select()
    .from(processorCalls)
    .where(and(eq(processorCalls.subjectId, refund.id), eq(processorCalls.status, "started")));
  if (!call) return refund;
  return finishRefund(db, refund, call, processor, reference);
}

type Processor = ReturnType<typeof processorFor>;

/** Steps 2 and 3: the call under its key, then its answer recorded (or the refund answered pending). */
async function finishRefund(
  db: Db,
  refund: RefundRow,
  call: ProcessorCallRow,
  processor: Processor,
  reference: string,
) {
  const answer = await makeCall(call, (idempotencyKey) =>
    processor.refund({ reference, amount: refund.amount, idempotencyKey }),
  );
  if (!answer.known) return refund;
  let recorded;
  try {
    recorded = await recordRefund(db, call.id, answer.answer, { discardDeclined: true });
  } catch (error) {
    // The processor answered but the record could not be written: the recovery job records it.
    log.error(
      { refund_id: refund.id, err: error instanceof Error ? error.message : String(error) },
      "refund answered but not recorded",
    );
    return refund;
  }
  // Recorded by the recovery job meanwhile: as it is now.
  recorded ??= (await db.select().from(refunds).where(eq(refunds.id, refund.id)))[0] ?? null;
  if (!recorded || recorded.status === "failed")
    throw new AppError(
      "refund_failed",
      `The processor declined the refund (${recorded?.failureReason ?? "declined"}); nothing was refunded`,
      { param: "amount" },
    );
  return recorded;
}
