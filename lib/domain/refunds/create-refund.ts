import { and, eq, sql } from "drizzle-orm";

import { one } from "../../db/one";
import { charges, merchants, refunds } from "../../db/schema";
import { type Db } from "../../db/types";
import { AppError, invalid } from "../../errors";
import { createId } from "../../ids";
import { postRefund } from "../../ledger/payment-movements";
import { processorFor } from "../../processors";
import type { refundReasons } from "../../schemas/payment-values";
import { serializeChargeForIsv } from "../../serializers/charge";
import { serializePlatformFee } from "../../serializers/platform-fee";
import { serializeRefund } from "../../serializers/refund";
import { getAccount } from "../accounts/get-account";
import { brandOf, platformFeeSettingsOf } from "../accounts/isv-facts";
import { findCharge } from "../charges/find-charge";
import { refundsOfCharges } from "../charges/refunds-of-charges";
import { assertRefundable, refundable } from "../charges/status";
import { recordEvent } from "../events/record-event";
import { platformFeeRefundOf } from "../fees/platform-fee";
import type { Scope } from "../scope";

/**
 * POST /v1/refunds (docs/reference.md section 10): part or all of a charge. The charge's
 * `amount_refunded` is raised by one conditional update that holds only while the total stays
 * within `amount_captured`, so racing refunds can never refund more than was captured; the
 * processor is asked inside the same transaction, and a refund it declines changes nothing.
 */
export async function createRefund(
  db: Db,
  scope: Scope,
  input: { charge_id: string; amount?: number; reason?: (typeof refundReasons)[number] },
) {
  const found = await findCharge(db, scope, input.charge_id);
  assertRefundable(found);
  const processor = processorFor(found.paymentMethod);
  // Default: what is left now. If another refund lands first, the conditional update below refuses.
  const amount = input.amount ?? found.amountCaptured - found.amountRefunded;
  if (amount <= 0) throw invalid("charge_id", `Charge ${found.id} is already fully refunded`, "refund_exceeds_charge");
  return db.transaction(async (tx) => {
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
    const result = await processor.refund({ reference: charge.processorReference ?? "", amount });
    if (!result.ok) {
      // Rolls the transaction back: the charge's amount_refunded is as it was.
      throw new AppError(
        "refund_failed",
        `The processor declined the refund (${result.reason}); nothing was refunded`,
        { param: "amount" },
      );
    }
    // What it gives back of the ISV's platform fee (section 19): pro rata on the running total, or
    // nothing when the ISV keeps it. The charge's row is locked by the update above: racing refunds
    // take their shares one after the other.
    const isv = await getAccount(tx, charge.isvAccountId);
    const platformFeeRefund = platformFeeRefundOf(
      platformFeeSettingsOf(isv).refund,
      {
        captured: charge.amountCaptured,
        platformFee: charge.platformFee ?? 0,
        platformFeeRefunded: charge.platformFeeRefunded,
        refundedBefore: charge.amountRefunded - amount,
      },
      amount,
    );
    if (platformFeeRefund > 0)
      Object.assign(
        charge,
        one(
          await tx
            .update(charges)
            .set({ platformFeeRefunded: sql`${charges.platformFeeRefunded} + ${platformFeeRefund}` })
            .where(eq(charges.id, charge.id))
            .returning(),
        ),
      );
    const refund = one(
      await tx
        .insert(refunds)
        .values({
          id: createId("re"),
          isvAccountId: charge.isvAccountId,
          merchantId: charge.merchantId,
          chargeId: charge.id,
          amount,
          reason: input.reason ?? null,
          status: "succeeded",
          processorReference: result.reference,
          platformFeeRefund,
        })
        .returning(),
    );
    const platformFeeTxn = await postRefund(tx, refund, charge, brandOf(isv).display_name);
    const merchant = one(await tx.select().from(merchants).where(eq(merchants.id, charge.merchantId)));
    const chargeJson = serializeChargeForIsv(
      charge,
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
        data: serializePlatformFee(platformFeeTxn, charge, refund.id),
      });
    return refund;
  });
}
