import { and, eq } from "drizzle-orm";

import { cursorPage } from "../../db/cursor-page";
import type { SettlementRow } from "../../db/schema";
import { charges, merchants, settlements } from "../../db/schema";
import { type DbOrTx } from "../../db/types";
import { notFound } from "../../errors";
import type { ListQuery } from "../../schemas/list";
import type { PaymentScope } from "../payments/scope";
import { refundsOfCharges } from "../refunds/refunds-of-charges";

const inScope = (scope: PaymentScope) =>
  and(
    eq(settlements.isvAccountId, scope.isvAccountId),
    scope.merchantId ? eq(settlements.merchantId, scope.merchantId) : undefined,
  )!;

/** One settlement within the caller's scope (another account's is a 404). */
export async function findSettlement(db: DbOrTx, scope: PaymentScope, id: string): Promise<SettlementRow> {
  const [row] = await db
    .select()
    .from(settlements)
    .where(and(eq(settlements.id, id), inScope(scope)));
  if (!row) throw notFound("settlement", id);
  return row;
}

/** GET /v1/settlements: newest first, filtered by merchant. */
export async function listSettlements(db: DbOrTx, scope: PaymentScope, query: ListQuery & { merchant_id?: string }) {
  return cursorPage(query, {
    noun: "settlement",
    seq: settlements.seq,
    filters: [inScope(scope), ...(query.merchant_id ? [eq(settlements.merchantId, query.merchant_id)] : [])],
    positionOf: async (id) => {
      const [row] = await db
        .select({ seq: settlements.seq })
        .from(settlements)
        .where(and(inScope(scope), eq(settlements.id, id)));
      return row?.seq ?? null;
    },
    select: (where, orderBy, limit) => db.select().from(settlements).where(where).orderBy(orderBy).limit(limit),
  });
}

/** GET /v1/settlements/{id}/charges: the settlement's charges, a page at a time. */
export async function listSettlementCharges(db: DbOrTx, scope: PaymentScope, id: string, query: ListQuery) {
  const settlement = await findSettlement(db, scope, id);
  const page = await cursorPage(query, {
    noun: "charge",
    seq: charges.seq,
    filters: [eq(charges.settlementId, settlement.id)],
    positionOf: async (chargeId) => {
      const [row] = await db
        .select({ seq: charges.seq })
        .from(charges)
        .where(and(eq(charges.settlementId, settlement.id), eq(charges.id, chargeId)));
      return row?.seq ?? null;
    },
    select: (where, orderBy, limit) => db.select().from(charges).where(where).orderBy(orderBy).limit(limit),
  });
  const [merchant] = await db.select().from(merchants).where(eq(merchants.id, settlement.merchantId));
  const refunds = await refundsOfCharges(
    db,
    page.rows.map((r) => r.id),
  );
  return { ...page, merchant: merchant!, refundsOf: (chargeId: string) => refunds.get(chargeId) ?? [] };
}
