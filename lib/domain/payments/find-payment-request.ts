import { and, eq } from "drizzle-orm";

import type { PaymentRequestRow } from "../../db/schema";
import { paymentRequests } from "../../db/schema";
import { type DbOrTx } from "../../db/types";
import { notFound } from "../../errors";
import { type Scope, withinScope } from "../scope";

/** One payment request within the caller's scope (another account's is a 404). */
export async function findPaymentRequest(db: DbOrTx, scope: Scope, id: string): Promise<PaymentRequestRow> {
  const [row] = await db
    .select()
    .from(paymentRequests)
    .where(and(eq(paymentRequests.id, id), withinScope(paymentRequests, scope)));
  if (!row) throw notFound("payment request", id);
  return row;
}

/** For the public hosted pages: anyone holding the (unguessable) id. */
export async function findPublicPaymentRequest(db: DbOrTx, id: string): Promise<PaymentRequestRow> {
  const [row] = /^pr_[0-9A-Za-z]{22}$/.test(id)
    ? await db.select().from(paymentRequests).where(eq(paymentRequests.id, id))
    : [];
  if (!row) throw notFound("payment request", id);
  return row;
}
