import { and, eq } from "drizzle-orm";

import { cursorPage } from "../../db/cursor-page";
import { disputes } from "../../db/schema";
import { type DbOrTx } from "../../db/types";
import { type DisputeStatus } from "../../schemas/disputes";
import type { ListQuery } from "../../schemas/list";
import { type Scope, withinScope } from "../scope";
import { disputeColumns } from "./status";

/** GET /v1/disputes: newest first, filtered by merchant, charge and status. */
export async function listDisputes(
  db: DbOrTx,
  scope: Scope,
  query: ListQuery & { merchant_id?: string; charge_id?: string; status?: DisputeStatus },
) {
  const filters = [
    withinScope(disputes, scope),
    ...(query.merchant_id ? [eq(disputes.merchantId, query.merchant_id)] : []),
    ...(query.charge_id ? [eq(disputes.chargeId, query.charge_id)] : []),
    ...(query.status ? [eq(disputes.status, query.status)] : []),
  ];
  return cursorPage(query, {
    noun: "dispute",
    seq: disputes.seq,
    filters,
    positionOf: async (id) => {
      const [row] = await db
        .select({ seq: disputes.seq })
        .from(disputes)
        .where(and(withinScope(disputes, scope), eq(disputes.id, id)));
      return row?.seq ?? null;
    },
    select: (where, orderBy, limit) =>
      db.select(disputeColumns).from(disputes).where(where).orderBy(orderBy).limit(limit),
  });
}
