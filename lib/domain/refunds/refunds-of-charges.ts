import { asc, inArray } from "drizzle-orm";
import type { DbOrTx } from "../../db/client";
import { refunds } from "../../db/schema";
import { chargeRefund } from "../../serializers/refund";

/** The refunds of these charges, oldest first, as the charge's `refunds` lists them (one query). */
export async function refundsOfCharges(db: DbOrTx, chargeIds: string[]) {
  const byCharge = new Map<string, ReturnType<typeof chargeRefund>[]>();
  if (chargeIds.length === 0) return byCharge;
  const rows = await db.select().from(refunds).where(inArray(refunds.chargeId, chargeIds)).orderBy(asc(refunds.seq));
  for (const row of rows) byCharge.set(row.chargeId, [...(byCharge.get(row.chargeId) ?? []), chargeRefund(row)]);
  return byCharge;
}
