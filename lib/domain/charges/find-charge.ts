import { and, eq } from "drizzle-orm";
import { charges } from "../../db/schema";
import { notFound } from "../../errors";
import type { PaymentScope } from "../payments/scope";
import type { ChargeRow } from "../../db/schema";
import { type DbOrTx } from "../../db/types";

/** One charge within the caller's scope (another account's is a 404). */
export async function findCharge(db: DbOrTx, scope: PaymentScope, id: string): Promise<ChargeRow> {
  const [row] = await db
    .select()
    .from(charges)
    .where(and(eq(charges.id, id), eq(charges.isvAccountId, scope.isvAccountId), scope.merchantId ? eq(charges.merchantId, scope.merchantId) : undefined));
  if (!row) throw notFound("charge", id);
  return row;
}
