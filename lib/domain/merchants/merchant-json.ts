import { type AccountRow, type MerchantRow } from "../../db/schema";
import { type DbOrTx } from "../../db/types";
import { serializeMerchant } from "../../serializers/merchant";
import {
  defaultPayoutSettings,
  type PayoutSettings,
  payoutSettingsOf,
  payoutSettingsOfMany,
} from "../payouts/settings";
import { requirementsFor } from "./requirements";

/**
 * The merchant as the API shows it: its row, its requirements under its ISV's settings, its payout
 * settings (read unless the caller knows them: a merchant just made has the defaults).
 */
export const merchantJson = async (db: DbOrTx, row: MerchantRow, isv: AccountRow, payouts?: PayoutSettings) =>
  serializeMerchant(row, isv, requirementsFor(row, isv), payouts ?? (await payoutSettingsOf(db, row.id)));

/** A page of merchants as the API shows them (their payout settings read in one query). */
export async function merchantsJson(db: DbOrTx, rows: readonly MerchantRow[], isv: AccountRow) {
  const settings = await payoutSettingsOfMany(
    db,
    rows.map((r) => r.id),
  );
  return rows.map((r) =>
    serializeMerchant(r, isv, requirementsFor(r, isv), settings.get(r.id) ?? defaultPayoutSettings),
  );
}
