import { clock } from "../../clock";
import { type AccountRow, type MerchantRow } from "../../db/schema";
import { type Db } from "../../db/types";
import { forbidden } from "../../errors";
import { drawableOf } from "../../ledger/payout-draws";
import type { InstantPayoutRail } from "../../schemas/instant-payouts";
import type { PayoutScheduleChange } from "../../schemas/payout-schedule";
import { settingsOf } from "../accounts/isv-facts";
import { updateMerchant } from "../merchants/update-merchant";
import { createInstantPayout, instantFactsOf } from "../payouts/instant";
import { createManualPayout } from "../payouts/manual-payout";
import { heldReasonOf } from "../payouts/rules";
import { nextPayoutDay } from "../payouts/schedule";
import { payoutSettingsOf } from "../payouts/settings";
import { listReserves } from "../reserves/reserves";
import { merchantScope } from "../scope";

/**
 * What the home's payouts page says of money out (docs/reference.md section 20): the schedule, the
 * next day it makes a payout, what may be paid out now, why payouts wait (if they do), and whether
 * the ISV lets the merchant change its schedule.
 */
export async function homePayoutFacts(db: Db, merchant: MerchantRow, isv: Pick<AccountRow, "id" | "settings">) {
  const settings = await payoutSettingsOf(db, merchant.id);
  const reserves = (await listReserves(db, merchantScope(merchant), merchant.id)).filter((r) => r.status === "active");
  return {
    /** The reserves holding money back (or about to), each with its reason and next release. */
    reserves,
    /** What an instant payout may be now, and why not (docs/reference.md section 20). */
    instant: await instantFactsOf(db, merchant),
    schedule: settings.schedule,
    nextPayoutDay: nextPayoutDay(settings.schedule, clock.now()),
    available: Math.max(0, await drawableOf(db, merchant.id)),
    heldReason: heldReasonOf(merchant, settings),
    canChangeSchedule: settingsOf(isv).merchant_can_change_schedule,
  };
}

/** The home's schedule form: the merchant's own change, when its ISV allows it (403 `permission_denied` otherwise). */
export async function changeScheduleFromHome(
  db: Db,
  merchant: MerchantRow,
  isv: Pick<AccountRow, "id" | "settings">,
  change: PayoutScheduleChange,
) {
  if (!settingsOf(isv).merchant_can_change_schedule)
    throw forbidden("permission_denied", "Your payout schedule is set by your software provider");
  return updateMerchant(db, merchant.isvAccountId, merchant.id, { payout_schedule: change });
}

/** The home's "pay out now": a manual payout of the merchant's own available funds (all, or `amount`). */
export function payOutFromHome(db: Db, merchant: MerchantRow, amount?: number) {
  return createManualPayout(db, merchantScope(merchant), { amount });
}

/** The home's instant payout of `amount` cents of the merchant's own available funds. */
export function instantFromHome(db: Db, merchant: MerchantRow, amount: number, rail?: InstantPayoutRail) {
  return createInstantPayout(db, merchantScope(merchant), { amount, rail });
}
