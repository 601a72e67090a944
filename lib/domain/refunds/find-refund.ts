import { and, eq } from "drizzle-orm";

import type { RefundRow } from "../../db/schema";
import { refunds } from "../../db/schema";
import { type DbOrTx } from "../../db/types";
import { notFound } from "../../errors";
import type { PaymentScope } from "../payments/scope";

/** One refund within the caller's scope (another account's is a 404). */
export async function findRefund(db: DbOrTx, scope: PaymentScope, id: string): Promise<RefundRow> {
  const [row] = await db
    .select()
    .from(refunds)
    .where(
      and(
        eq(refunds.id, id),
        eq(refunds.isvAccountId, scope.isvAccountId),
        scope.merchantId ? eq(refunds.merchantId, scope.merchantId) : undefined,
      ),
    );
  if (!row) throw notFound("refund", id);
  return row;
}
