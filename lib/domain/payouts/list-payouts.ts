import { and, eq } from "drizzle-orm";

import { cursorPage } from "../../db/cursor-page";
import { payouts } from "../../db/schema";
import { type DbOrTx } from "../../db/types";
import type { ListQuery } from "../../schemas/list";
import type { PayoutRecipient, PayoutStatus } from "../../schemas/payouts";
import { type Scope, withinScope } from "../scope";

/**
 * GET /v1/payouts: newest first, one recipient's (the merchants', unless `recipient: account`: the
 * ISV's own), filtered by merchant, settlement and status.
 */
export async function listPayouts(
  db: DbOrTx,
  scope: Scope,
  query: ListQuery & {
    recipient?: PayoutRecipient;
    merchant_id?: string;
    settlement_id?: string;
    status?: PayoutStatus;
  },
) {
  const filters = [
    withinScope(payouts, scope),
    eq(payouts.recipient, query.recipient ?? "merchant"),
    ...(query.merchant_id ? [eq(payouts.merchantId, query.merchant_id)] : []),
    ...(query.settlement_id ? [eq(payouts.settlementId, query.settlement_id)] : []),
    ...(query.status ? [eq(payouts.status, query.status)] : []),
  ];
  return cursorPage(query, {
    noun: "payout",
    seq: payouts.seq,
    filters,
    positionOf: async (id) => {
      const [row] = await db
        .select({ seq: payouts.seq })
        .from(payouts)
        .where(and(withinScope(payouts, scope), eq(payouts.id, id)));
      return row?.seq ?? null;
    },
    select: (where, orderBy, limit) => db.select().from(payouts).where(where).orderBy(orderBy).limit(limit),
  });
}
