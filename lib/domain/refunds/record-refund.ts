import { and, eq, sql } from "drizzle-orm";

import { retryOnConflict } from "../../db/errors";
import { one } from "../../db/one";
import { charges, merchants, type RefundRow, refunds } from "../../db/schema";
import { type Db } from "../../db/types";
import { postRefund } from "../../ledger/payment-movements";
import { log } from "../../log";
import type { RefundResult } from "../../processors/processor";
import { serializeChargeForIsv } from "../../serializers/charge";
import { serializePlatformFee } from "../../serializers/platform-fee";
import { serializeRefund } from "../../serializers/refund";
import { getAccount } from "../accounts/get-account";
import { brandOf, platformFeeSettingsOf } from "../accounts/isv-facts";
import { withLedgerFact } from "../charges/ledger-charge";
import { lockMerchantShared } from "../charges/lock-order";
import { refundsOfCharges } from "../charges/refunds-of-charges";
import { recordEvent } from "../events/record-event";
import { platformFeeRefundOf } from "../fees/platform-fee";
import { claimCall } from "../payments/processor-calls";

/**
 * Step 3 of a refund's call (../payments/processor-calls.ts): what the processor answered, recorded
 * once. Approved: the refund `succeeded` with its share of the platform fee, its ledger posting and
 * `refund.created`, `charge.refunded` (and `platform_fee.refunded`). Declined: the charge's
 * `amount_refunded` goes back down and the refund is `failed` (`refund.failed`), or, when the
 * request is still waiting (`discardDeclined`), removed: the API answers 400 `refund_failed` and
 * nothing was refunded. Null: the call was recorded already (by the request or the recovery job).
 */
export async function recordRefund(
  db: Db,
  callId: string,
  answer: RefundResult,
  options: { discardDeclined?: boolean } = {},
): Promise<RefundRow | null> {
  return retryOnConflict(() =>
    db.transaction(async (tx) => {
      const call = await claimCall(
        tx,
        callId,
        "recorded",
        answer.ok ? { approved: true, reference: answer.reference } : { approved: false, reason: answer.reason },
      );
      if (!call) return null;
      await lockMerchantShared(tx, call.merchantId);
      const pending = one(await tx.select().from(refunds).where(eq(refunds.id, call.subjectId)));
      const [charge] = await tx.select().from(charges).where(eq(charges.id, pending.chargeId)).for("update");
      if (!charge) throw new Error(`refund ${pending.id} without its charge`);
      if (!answer.ok) {
        await tx
          .update(charges)
          .set({ amountRefunded: sql`${charges.amountRefunded} - ${pending.amount}` })
          .where(eq(charges.id, charge.id));
        if (options.discardDeclined) {
          await tx.delete(refunds).where(eq(refunds.id, pending.id));
          return { ...pending, status: "failed" as const, failureReason: answer.reason };
        }
        const failed = one(
          await tx
            .update(refunds)
            .set({ status: "failed", failureReason: answer.reason })
            .where(eq(refunds.id, pending.id))
            .returning(),
        );
        await recordEvent(tx, {
          accountId: failed.isvAccountId,
          type: "refund.failed",
          objectId: failed.id,
          data: serializeRefund(failed),
        });
        log.warn({ refund_id: failed.id, reason: answer.reason }, "pending refund declined");
        return failed;
      }
      // Its share of the platform fee (section 19), pro rata on the refunds that succeeded before it:
      // the charge's row is locked, so refunds recorded at once take their shares one after the other.
      const [before] = await tx
        .select({ total: sql<number>`coalesce(sum(${refunds.amount}), 0)::int` })
        .from(refunds)
        .where(and(eq(refunds.chargeId, charge.id), eq(refunds.status, "succeeded")));
      const isv = await getAccount(tx, charge.isvAccountId);
      const platformFeeRefund = platformFeeRefundOf(
        platformFeeSettingsOf(isv).refund,
        {
          captured: charge.amountCaptured,
          platformFee: charge.platformFee ?? 0,
          platformFeeRefunded: charge.platformFeeRefunded,
          refundedBefore: Number(before?.total ?? 0),
        },
        pending.amount,
      );
      const updatedCharge =
        platformFeeRefund > 0
          ? one(
              await tx
                .update(charges)
                .set({ platformFeeRefunded: sql`${charges.platformFeeRefunded} + ${platformFeeRefund}` })
                .where(eq(charges.id, charge.id))
                .returning(),
            )
          : charge;
      const refund = one(
        await tx
          .update(refunds)
          .set({ status: "succeeded", processorReference: answer.reference, platformFeeRefund })
          .where(eq(refunds.id, pending.id))
          .returning(),
      );
      const platformFeeTxn = await postRefund(tx, refund, updatedCharge, brandOf(isv).display_name);
      const merchant = one(await tx.select().from(merchants).where(eq(merchants.id, charge.merchantId)));
      const chargeJson = serializeChargeForIsv(
        await withLedgerFact(tx, updatedCharge),
        merchant,
        (await refundsOfCharges(tx, [charge.id])).get(charge.id),
      );
      await recordEvent(tx, {
        accountId: charge.isvAccountId,
        type: "refund.created",
        objectId: refund.id,
        data: serializeRefund(refund),
      });
      await recordEvent(tx, {
        accountId: charge.isvAccountId,
        type: "charge.refunded",
        objectId: charge.id,
        data: chargeJson,
      });
      if (platformFeeTxn)
        await recordEvent(tx, {
          accountId: charge.isvAccountId,
          type: "platform_fee.refunded",
          objectId: platformFeeTxn.id,
          data: serializePlatformFee(platformFeeTxn, updatedCharge, refund.id),
        });
      return refund;
    }),
  );
}
