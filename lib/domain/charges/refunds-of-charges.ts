import { and, asc, inArray, ne, sql } from "drizzle-orm";

import { charges, refunds } from "../../db/schema";
import { type DbOrTx } from "../../db/types";
import { sourcesTakenBy } from "../../ledger/reads";
import { chargeRefund } from "../../serializers/refund";

/** The refunds of these charges, oldest first, as the charge's `refunds` lists them (one query). */
export async function refundsOfCharges(db: DbOrTx, chargeIds: string[] | { settlementId: string }) {
  const byCharge = new Map<string, ReturnType<typeof chargeRefund>[]>();
  if (Array.isArray(chargeIds) && chargeIds.length === 0) return byCharge;
  // A settlement's charges by a subquery: any number of them, not one parameter each.
  const which = Array.isArray(chargeIds)
    ? inArray(refunds.chargeId, chargeIds)
    : inArray(
        refunds.chargeId,
        db
          .select({ id: charges.id })
          .from(charges)
          .where(sql`${charges.id} in (${sourcesTakenBy(chargeIds.settlementId, "charge")})`),
      );
  // A failed refund gave its amount back: the list adds up to `amount_refunded` (pending ones included).
  const rows = await db
    .select()
    .from(refunds)
    .where(and(which, ne(refunds.status, "failed")))
    .orderBy(asc(refunds.seq));
  for (const row of rows) byCharge.set(row.chargeId, [...(byCharge.get(row.chargeId) ?? []), chargeRefund(row)]);
  return byCharge;
}
