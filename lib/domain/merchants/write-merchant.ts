import { eq } from "drizzle-orm";

import { one } from "../../db/one";
import { merchants } from "../../db/schema";
import { type DbOrTx } from "../../db/types";

/** The columns a write of the merchant row may set (its id never changes). */
export type MerchantWrite = Omit<Partial<typeof merchants.$inferInsert>, "id">;

/**
 * The UPDATE of one merchant's row by id, answering the row as written: the callers hold its lock
 * (read `for update` in their transaction), so no row back is a bug (`one` throws). The state
 * moves go through ./status.ts (`moveMerchant`), which also checks the state they start from.
 */
export async function writeMerchant(tx: DbOrTx, merchantId: string, set: MerchantWrite) {
  return one(await tx.update(merchants).set(set).where(eq(merchants.id, merchantId)).returning());
}
