import { and, eq, isNotNull, isNull, sql } from "drizzle-orm";

import { hostedBaseUrl } from "../../branding/hosts";
import { clock } from "../../clock";
import { retryOnConflict } from "../../db/errors";
import { one } from "../../db/one";
import { charges, disputes, merchants } from "../../db/schema";
import { type Db } from "../../db/types";
import { createId } from "../../ids";
import { enqueueJob, type JobPayload } from "../../jobs/job-types";
import { postDispute } from "../../ledger/payment-movements";
import { sourcesTakenBy } from "../../ledger/reads";
import { log } from "../../log";
import { contactEmailOf, merchantLocale } from "../../merchants/facts";
import { queueEmail } from "../../notifications/send-email";
import { disputeOpened } from "../../notifications/templates";
import { paymentProcessor } from "../../processors";
import { type DisputeReason } from "../../schemas/disputes";
import { getAccount } from "../accounts/get-account";
import { brandOf } from "../accounts/isv-facts";
import { lockMerchantShared } from "../charges/lock-order";
import { disputePrice } from "../fees/dispute-price";
import { disputedAmount, EVIDENCE_WINDOW_MS } from "./rules";
import { disputeEvent } from "./status";

/**
 * A dispute of a settled card charge, reported by the processor: in one transaction (the charge's
 * row locked, so a refund racing it either lands first and lowers the amount, or finds the charge
 * disputed and is refused) the dispute is written with what the customer still paid and the ISV's
 * dispute fee, the charge is marked, `dispute.created`, the deadline's job, and an e-mail to the
 * merchant. A charge disputed already, or refunded in full, opens none (null).
 */
export async function openDispute(db: Db, chargeId: string, reason: DisputeReason, now = clock.now()) {
  return retryOnConflict(() =>
    db.transaction(async (tx) => {
      // The one lock order (../refunds/record-refund.ts): the merchant's row, shared, before the charge's.
      const [owner] = await tx.select({ merchantId: charges.merchantId }).from(charges).where(eq(charges.id, chargeId));
      if (!owner) return null;
      await lockMerchantShared(tx, owner.merchantId);
      const [charge] = await tx.select().from(charges).where(eq(charges.id, chargeId)).for("update");
      if (!charge || charge.disputeId || charge.paymentMethod !== "card" || charge.status !== "SETTLED") return null;
      const amount = disputedAmount(charge);
      if (amount === 0) return null;
      const merchant = one(await tx.select().from(merchants).where(eq(merchants.id, charge.merchantId)));
      const isv = await getAccount(tx, charge.isvAccountId);
      const { fee, costs, margin } = disputePrice(isv);
      const dispute = one(
        await tx
          .insert(disputes)
          .values({
            id: createId("dp"),
            isvAccountId: charge.isvAccountId,
            merchantId: charge.merchantId,
            chargeId: charge.id,
            amount,
            fee,
            // What it costs the platform and what the ISV makes on it (docs/reference.md section 19).
            costs,
            margin,
            reason,
            status: "needs_response",
            evidenceDueBy: new Date(now.getTime() + EVIDENCE_WINDOW_MS),
            createdAt: now,
            updatedAt: now,
          })
          .returning(),
      );
      await tx.update(charges).set({ disputeId: dispute.id }).where(eq(charges.id, charge.id));
      await postDispute(tx, dispute);
      await disputeEvent(tx, "dispute.created", dispute);
      await enqueueJob(
        tx,
        "dispute_deadline",
        { dispute_id: dispute.id },
        { runAt: dispute.evidenceDueBy, key: `dispute_deadline_${dispute.id}` },
      );
      const to = contactEmailOf(merchant);
      if (to) {
        const locale = merchantLocale(merchant);
        await queueEmail(tx, {
          accountId: charge.isvAccountId,
          merchantId: charge.merchantId,
          kind: "dispute_opened",
          to,
          locale,
          ...disputeOpened({
            brand: brandOf(isv),
            locale,
            amount,
            fee: dispute.fee,
            reason,
            chargedAt: charge.createdAt,
            dueBy: dispute.evidenceDueBy,
            url: `${hostedBaseUrl(isv)}/home/disputes/${dispute.id}`,
          }),
        });
      }
      log.warn({ dispute_id: dispute.id, charge_id: charge.id, merchant_id: charge.merchantId }, "dispute opened");
      return dispute;
    }),
  );
}

/**
 * The `card_disputes` job: of a settlement's card charges, those the processor says their customers
 * disputed open a dispute each (one transaction each; a second run opens none: one per charge).
 */
export async function checkCardDisputes(db: Db, { settlement_id }: JobPayload<"card_disputes">) {
  const candidates = await db
    .select({ id: charges.id, reference: charges.processorReference })
    .from(charges)
    .where(
      and(
        sql`${charges.id} in (${sourcesTakenBy(settlement_id, "charge")})`,
        eq(charges.paymentMethod, "card"),
        eq(charges.status, "SETTLED"),
        isNull(charges.disputeId),
        isNotNull(charges.processorReference),
      ),
    );
  // Each has a reference (the query asks for it; its type does not know).
  const referenced = candidates.flatMap((c) => (c.reference ? [{ id: c.id, reference: c.reference }] : []));
  if (referenced.length === 0) return;
  const reported = new Map(
    (await paymentProcessor().disputes(referenced.map((c) => c.reference))).map((d) => [d.reference, d.reason]),
  );
  for (const charge of referenced) {
    const reason = reported.get(charge.reference);
    if (reason) await openDispute(db, charge.id, reason);
  }
}
