import { and, eq } from "drizzle-orm";
import type { DbOrTx } from "../../db/client";
import { merchants } from "../../db/schema";
import { notFound } from "../../errors";

export type MerchantRow = typeof merchants.$inferSelect;

/** The only way to load a merchant: always within the caller's ISV account (another's is a 404). */
export async function findMerchant(db: DbOrTx, isvAccountId: string, merchantId: string, options: { forUpdate?: boolean } = {}): Promise<MerchantRow> {
  const query = db
    .select()
    .from(merchants)
    .where(and(eq(merchants.isvAccountId, isvAccountId), eq(merchants.id, merchantId)));
  const [row] = options.forUpdate ? await query.for("update") : await query;
  if (!row) throw notFound("merchant", merchantId, "merchant_id");
  return row;
}
