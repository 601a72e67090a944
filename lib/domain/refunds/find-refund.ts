import { and, eq } from "drizzle-orm";

import type { RefundRow } from "../../db/schema";
import { refunds } from "../../db/schema";
import { type DbOrTx } from "../../db/types";
import { notFound } from "../../errors";
import { type Scope, withinScope } from "../scope";

/** One refund within the caller's scope (another account's is a 404). */
export async function findRefund(db: DbOrTx, scope: Scope, id: string): Promise<RefundRow> {
  const [row] = await db
    .select()
    .from(refunds)
    .where(and(eq(refunds.id, id), withinScope(refunds, scope)));
  if (!row) throw notFound("refund", id);
  return row;
}
