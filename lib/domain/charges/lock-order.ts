import { eq } from "drizzle-orm";

import { merchants } from "../../db/schema";
import { type DbOrTx } from "../../db/types";

/**
 * The one order of locks on a merchant's money (docs/reference.md section 10): the merchant's row,
 * then a charge's, then its refunds'. A refund holds the merchant's row shared (as the foreign keys
 * of what it writes would anyway) before its charge's, so a settlement, which holds the merchant's
 * row exclusively while it moves the charges, is waited for instead of deadlocked with.
 */
export async function lockMerchantShared(tx: DbOrTx, merchantId: string) {
  await tx.select({ id: merchants.id }).from(merchants).where(eq(merchants.id, merchantId)).for("key share");
}
