import { revokeHomeSessions } from "../../auth/home-session";
import { clock } from "../../clock";
import { type Db } from "../../db/types";
import type { PartialApplication } from "../../schemas/merchant";
import type { PayoutScheduleChange } from "../../schemas/payout-schedule";
import { getAccount } from "../accounts/get-account";
import { reconsiderPayouts } from "../payouts/reconsider-payouts";
import { changeSchedule } from "../payouts/schedule";
import { payoutSettingsOf, setPayoutSettings } from "../payouts/settings";
import { changeApplication } from "./change-application";
import { findMerchant } from "./find-merchant";
import { recordMerchantEvent } from "./merchant-event";
import { writeMerchant } from "./write-merchant";

export type UpdateMerchantInput = {
  phone?: string;
  merchant?: PartialApplication;
  deactivated?: boolean;
  automatic_payouts?: boolean;
  payout_schedule?: PayoutScheduleChange;
  agent?: number | null;
};

/**
 * PATCH /v1/merchants/{id}: the application while onboarding is open (else 409), through the one
 * writer; `deactivated`, `automatic_payouts` and `payout_schedule` at any time (a schedule change
 * is checked whole: ../payouts/schedule.ts). Writes `merchant.updated`.
 */
export async function updateMerchant(db: Db, isvAccountId: string, merchantId: string, input: UpdateMerchantInput) {
  return db.transaction(async (tx) => {
    const row = await findMerchant(tx, isvAccountId, merchantId, { forUpdate: true });
    const isv = await getAccount(tx, isvAccountId);
    const flags = input.deactivated !== undefined ? { deactivated: input.deactivated } : {};
    // The payout settings are their own (../payouts/settings.ts), changed first so the event shows them.
    if (input.automatic_payouts !== undefined)
      await setPayoutSettings(tx, { id: row.id, recipient: "merchant" }, { automatic: input.automatic_payouts });
    if (input.payout_schedule !== undefined) {
      const { schedule } = await payoutSettingsOf(tx, row.id);
      await setPayoutSettings(
        tx,
        { id: row.id, recipient: "merchant" },
        { schedule: changeSchedule(schedule, input.payout_schedule) },
      );
    }
    const payoutFields = [
      ...(input.automatic_payouts !== undefined ? ["automatic_payouts"] : []),
      ...(input.payout_schedule !== undefined ? ["payout_schedule"] : []),
    ];
    // Deactivated: every session of its home ends (it may sign in again to read its history).
    if (input.deactivated === true && !row.deactivated) await revokeHomeSessions(tx, row.id, "deactivated");
    const { merchant, phone, agent } = input;
    if (merchant !== undefined || phone !== undefined || agent !== undefined) {
      const updated = await changeApplication(tx, {
        merchant: row,
        isv,
        writer: "isv",
        change: { merchant, phone, agent },
        alsoSet: flags,
        ...(payoutFields.length ? { alsoChanged: payoutFields } : {}),
      });
      if (input.automatic_payouts !== undefined) await reconsiderPayouts(tx, updated);
      return { row: updated, isv };
    }
    const updated = await writeMerchant(tx, row.id, { ...flags, updatedAt: clock.now() });
    await recordMerchantEvent(tx, "merchant.updated", updated, {
      isv: isv,
      fields: [...(input.deactivated !== undefined ? ["deactivated"] : []), ...payoutFields],
    });
    // Payouts turned off: those not sent wait; turned on: the held ones go (docs/reference.md section 16).
    if (input.automatic_payouts !== undefined) await reconsiderPayouts(tx, updated);
    return { row: updated, isv };
  });
}
