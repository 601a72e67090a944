import type { AccountRow, MerchantRow } from "../../db/schema";
import { type DbOrTx } from "../../db/types";
import type { EventType } from "../../events/catalogue";
import { serializeMerchant } from "../../serializers/merchant";
import { getAccount } from "../accounts/get-account";
import { recordEvent } from "../events/record-event";
import { payoutSettingsOf } from "../payouts/settings";
import { requirementsFor } from "./requirements";

/**
 * A `merchant.*` event about the merchant as just written, in the change's transaction: the merchant
 * serialized as the API shows it (its requirements under its ISV's settings), with the fields the
 * change touched. The ISV is read unless the caller has it. Answers the ISV.
 */
export async function recordMerchantEvent(
  tx: DbOrTx,
  type: Extract<EventType, `merchant.${string}`>,
  merchant: MerchantRow,
  options: { isv?: AccountRow; fields?: string[] } = {},
) {
  const isv = options.isv ?? (await getAccount(tx, merchant.isvAccountId));
  await recordEvent(tx, {
    accountId: merchant.isvAccountId,
    type,
    objectId: merchant.id,
    data: serializeMerchant(merchant, isv, requirementsFor(merchant, isv), await payoutSettingsOf(tx, merchant.id)),
    ...(options.fields ? { fields: options.fields } : {}),
  });
  return isv;
}
