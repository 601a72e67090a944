import { type AccountRow } from "../../db/schema";
import { type DbOrTx } from "../../db/types";
import { serializeAccount } from "../../serializers/account";
import { payoutSettingsOf } from "../payouts/settings";

/** The account as the API shows it, with its payout settings (whether its payouts are frozen). */
export const accountJson = async (db: DbOrTx, row: AccountRow) =>
  serializeAccount(row, await payoutSettingsOf(db, row.id));
