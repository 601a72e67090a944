import { eq } from "drizzle-orm";
import type { Db } from "../../db/client";
import { merchants } from "../../db/schema";
import { invalidFields, invalidState } from "../../errors";
import { recordEvent } from "../events/record-event";
import { getAccount } from "../accounts/get-account";
import { serializeMerchant } from "../../serializers/merchant";
import { isRealPhone, mergeApplication, normalizePhone, phoneError } from "./application";
import { capabilityOverrideErrors } from "./capability-overrides";
import { findMerchant } from "./find-merchant";
import type { PartialApplication } from "../../schemas/merchant";

export type UpdateMerchantInput = {
  phone?: string;
  merchant?: PartialApplication;
  deactivated?: boolean;
  automatic_payouts?: boolean;
  agent?: number | null;
};

const openStatuses = new Set(["NOT_STARTED", "IN_PROGRESS"]);

/**
 * PATCH /v1/merchants/{id}: prefill while onboarding is open (else 409); `deactivated` and
 * `automatic_payouts` at any time. Writes `merchant.updated` when anything changed.
 */
export async function updateMerchant(db: Db, isvAccountId: string, merchantId: string, input: UpdateMerchantInput) {
  return db.transaction(async (tx) => {
    const row = await findMerchant(tx, isvAccountId, merchantId, { forUpdate: true });
    const changesApplication = input.merchant !== undefined || input.phone !== undefined || input.agent !== undefined;
    if (changesApplication && !openStatuses.has(row.status)) {
      throw invalidState(`The merchant's onboarding information can change only while lead_onboarding_status is NOT_STARTED or IN_PROGRESS; it is ${row.status}`);
    }
    if (input.phone !== undefined && !isRealPhone(input.phone)) throw invalidFields([phoneError("phone")]);
    let application = row.application;
    if (input.merchant) {
      const errors = capabilityOverrideErrors(input.merchant as Record<string, unknown>);
      const merged = mergeApplication(row.application, input.merchant as Record<string, unknown>);
      if (errors.length || merged.errors.length) throw invalidFields([...errors, ...merged.errors]);
      application = merged.next;
    }
    const [updated] = await tx
      .update(merchants)
      .set({
        application,
        ...(input.phone !== undefined ? { phone: normalizePhone(input.phone) } : {}),
        ...(input.agent !== undefined ? { agent: input.agent } : {}),
        ...(input.deactivated !== undefined ? { deactivated: input.deactivated } : {}),
        ...(input.automatic_payouts !== undefined ? { automaticPayouts: input.automatic_payouts } : {}),
        updatedAt: new Date(),
      })
      .where(eq(merchants.id, row.id))
      .returning();
    const isv = await getAccount(tx, isvAccountId);
    await recordEvent(tx, { accountId: isvAccountId, type: "merchant.updated", objectId: row.id, data: serializeMerchant(updated!, isv) });
    return { row: updated!, isv };
  });
}
