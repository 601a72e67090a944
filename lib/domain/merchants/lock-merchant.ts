import { eq } from "drizzle-orm";

import { type MerchantRow, merchants } from "../../db/schema";
import { type DbOrTx } from "../../db/types";

/**
 * The merchant's row, locked for the caller's transaction (undefined: no such merchant): the first
 * lock of every change that draws on its money, so a hold, a payout and an alert's action never draw
 * the same cents.
 */
export async function lockMerchant(tx: DbOrTx, merchantId: string): Promise<MerchantRow | undefined> {
  const [row] = await tx.select().from(merchants).where(eq(merchants.id, merchantId)).for("update");
  return row;
}
