import { eq } from "drizzle-orm";

import { clock } from "../../clock";
import { one } from "../../db/one";
import { merchants } from "../../db/schema";
import { type Db } from "../../db/types";
import { invalidState } from "../../errors";
import { getAccount } from "../accounts/get-account";
import { findMerchant } from "./find-merchant";
import { recordMerchantEvent } from "./merchant-event";

/**
 * POST /v1/merchants/{id}/device/release: the ISV takes a device back from one of its merchants,
 * typically an IMEI a merchant typed into its own onboarding that belongs to another merchant (an
 * "IMEI squatter": creating the right merchant with it answers 400 `imei_in_use` naming this one).
 * The merchant's device is cleared (it chooses one again, or skips where allowed) and
 * `merchant.updated` is recorded; the IMEI is free at once. 409 `invalid_state` when the merchant
 * has no device, or when its device is provisioned (`imei_status` `ACTIVE`: a terminal in service is
 * not taken away by an API call).
 */
export async function releaseDevice(db: Db, isvAccountId: string, merchantId: string) {
  return db.transaction(async (tx) => {
    const row = await findMerchant(tx, isvAccountId, merchantId, { forUpdate: true });
    if (!row.deviceImei && !row.deviceCatalogId && !row.deviceId)
      throw invalidState(`Merchant ${row.id} has no device to release`);
    if (row.deviceImeiStatus === "ACTIVE")
      throw invalidState(`Merchant ${row.id}'s device is provisioned (imei_status ACTIVE) and cannot be released`);
    const updated = one(
      await tx
        .update(merchants)
        .set({
          deviceSelection: null,
          deviceId: null,
          deviceImei: null,
          deviceImeiSource: null,
          deviceCatalogId: null,
          deviceImeiStatus: null,
          deviceCreatedAt: null,
          deviceUpdatedAt: null,
          updatedAt: clock.now(),
        })
        .where(eq(merchants.id, row.id))
        .returning(),
    );
    const isv = await getAccount(tx, isvAccountId);
    await recordMerchantEvent(tx, "merchant.updated", updated, { isv });
    return { row: updated, isv };
  });
}
