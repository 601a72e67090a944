import { type AccountRow, type MerchantRow } from "../../db/schema";
import { type DbOrTx } from "../../db/types";
import { serializeMerchant } from "../../serializers/merchant";
import { defaultPayoutSettings, payoutSettingsOf, payoutSettingsOfMany } from "../payouts/settings";
import { requirementsFor } from "./requirements";

/** The merchant as the API shows it: its row, its requirements under its ISV's settings, its payout settings. */
export const merchantJson = async (db: DbOrTx, row: MerchantRow, isv: AccountRow) =>
  serializeMerchant(row, isv, requirementsFor(row, isv), await payoutSettingsOf(db, row.id));

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
