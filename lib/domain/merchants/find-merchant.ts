import { and, eq, sql } from "drizzle-orm";

import { preparedPerDb } from "../../db/prepared";
import { type MerchantRow, merchants } from "../../db/schema";
import { type DbOrTx } from "../../db/types";
import { notFound } from "../../errors";

// GET /v1/merchants/{id} and most merchant work read it this way: built once, prepared.
export const merchantById = preparedPerDb((db) =>
  db
    .select()
    .from(merchants)
    .where(
      and(eq(merchants.isvAccountId, sql.placeholder("isvAccountId")), eq(merchants.id, sql.placeholder("merchantId"))),
    )
    .prepare("merchant_by_id"),
);

/** The only way to load a merchant: always within the caller's ISV account (another's is a 404). */
export async function findMerchant(
  db: DbOrTx,
  isvAccountId: string,
  merchantId: string,
  options: { forUpdate?: boolean } = {},
): Promise<MerchantRow> {
  const [row] = options.forUpdate
    ? await db
        .select()
        .from(merchants)
        .where(and(eq(merchants.isvAccountId, isvAccountId), eq(merchants.id, merchantId)))
        .for("update")
    : await merchantById(db).execute({ isvAccountId, merchantId });
  if (!row) throw notFound("merchant", merchantId, "merchant_id");
  return row;
}
