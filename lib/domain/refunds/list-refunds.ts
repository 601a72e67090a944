import { and, eq } from "drizzle-orm";

import { cursorPage } from "../../db/cursor-page";
import { refunds } from "../../db/schema";
import { type DbOrTx } from "../../db/types";
import type { ListQuery } from "../../schemas/list";
import { type Scope, withinScope } from "../scope";

/** GET /v1/refunds: newest first, filtered by charge and merchant, within the caller's scope. */
export async function listRefunds(
  db: DbOrTx,
  scope: Scope,
  query: ListQuery & { charge_id?: string; merchant_id?: string },
) {
  const inScope = withinScope(refunds, scope);
  return cursorPage(query, {
    noun: "refund",
    seq: refunds.seq,
    filters: [
      inScope,
      ...(query.charge_id ? [eq(refunds.chargeId, query.charge_id)] : []),
      ...(query.merchant_id ? [eq(refunds.merchantId, query.merchant_id)] : []),
    ],
    positionOf: async (id) => {
      const [row] = await db
        .select({ seq: refunds.seq })
        .from(refunds)
        .where(and(inScope, eq(refunds.id, id)));
      return row?.seq ?? null;
    },
    select: (where, orderBy, limit) => db.select().from(refunds).where(where).orderBy(orderBy).limit(limit),
  });
}
