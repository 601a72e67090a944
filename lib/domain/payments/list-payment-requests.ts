import { and, eq } from "drizzle-orm";

import { cursorPage } from "../../db/cursor-page";
import { paymentRequests } from "../../db/schema";
import { type DbOrTx } from "../../db/types";
import type { ListQuery } from "../../schemas/list";
import type { PaymentRequestStatus, PaymentType } from "../../schemas/payment-values";
import { type Scope, withinScope } from "../scope";

/** GET /v1/payment_requests: newest first, filtered by merchant, status and type, within the caller's scope. */
export async function listPaymentRequests(
  db: DbOrTx,
  scope: Scope,
  query: ListQuery & { merchant_id?: string; status?: PaymentRequestStatus; payment_type?: PaymentType | "REFUND" },
) {
  const inScope = withinScope(paymentRequests, scope);
  return cursorPage(query, {
    noun: "payment request",
    seq: paymentRequests.seq,
    filters: [
      inScope,
      ...(query.merchant_id ? [eq(paymentRequests.merchantId, query.merchant_id)] : []),
      ...(query.status ? [eq(paymentRequests.status, query.status)] : []),
      // REFUND is a reference value no request has yet: it matches nothing.
      ...(query.payment_type ? [eq(paymentRequests.paymentType, query.payment_type as PaymentType)] : []),
    ],
    positionOf: async (id) => {
      const [row] = await db
        .select({ seq: paymentRequests.seq })
        .from(paymentRequests)
        .where(and(inScope, eq(paymentRequests.id, id)));
      return row?.seq ?? null;
    },
    select: (where, orderBy, limit) => db.select().from(paymentRequests).where(where).orderBy(orderBy).limit(limit),
  });
}
