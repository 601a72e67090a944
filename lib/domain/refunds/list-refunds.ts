import { and, eq } from "drizzle-orm";

import { cursorPage } from "../../db/cursor-page";
import { refunds } from "../../db/schema";
import { type DbOrTx } from "../../db/types";
import type { ListQuery } from "../../schemas/list";
import type { PaymentScope } from "../payments/scope";

/** GET /v1/refunds: newest first, filtered by charge and merchant, within the caller's scope. */
export async function listRefunds(
  db: DbOrTx,
  scope: PaymentScope,
  query: ListQuery & { charge_id?: string; merchant_id?: string },
) {
  const inScope = and(
    eq(refunds.isvAccountId, scope.isvAccountId),
    scope.merchantId ? eq(refunds.merchantId, scope.merchantId) : undefined,
  )!;
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
