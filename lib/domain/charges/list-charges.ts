import { and, eq, gte, inArray, lte, sql } from "drizzle-orm";

import { anyOf } from "../../db/conditions";
import { cursorPage } from "../../db/cursor-page";
import type { ChargeRow, MerchantRow } from "../../db/schema";
import { charges, merchants } from "../../db/schema";
import { type DbOrTx } from "../../db/types";
import { must } from "../../must";
import type { ListQuery } from "../../schemas/list";
import { type Scope, withinScope } from "../scope";
import { withLedgerFacts } from "./ledger-charge";
import { refundsOfCharges } from "./refunds-of-charges";

type ChargeFilters = {
  merchant_id?: string;
  status?: ChargeRow["status"];
  "created[gte]"?: number;
  "created[lte]"?: number;
  /** The merchant's home's own filters (not the API's): how it was paid, the amount asked, the card's or account's last 4. */
  payment_type?: ChargeRow["paymentType"];
  amount?: number;
  last4?: string;
};

/** GET /v1/charges (docs/reference.md section 3): newest first, filtered by merchant, status and creation time (milliseconds). */
export async function listCharges(db: DbOrTx, scope: Scope, query: ListQuery & ChargeFilters) {
  const inScope = withinScope(charges, scope);
  const page = await cursorPage(query, {
    noun: "charge",
    seq: charges.seq,
    filters: [
      inScope,
      ...(query.merchant_id ? [eq(charges.merchantId, query.merchant_id)] : []),
      ...(query.status ? [eq(charges.status, query.status)] : []),
      ...(query["created[gte]"] !== undefined ? [gte(charges.createdAt, new Date(query["created[gte]"]))] : []),
      ...(query["created[lte]"] !== undefined ? [lte(charges.createdAt, new Date(query["created[lte]"]))] : []),
      ...(query.payment_type ? [eq(charges.paymentType, query.payment_type)] : []),
      ...(query.amount !== undefined ? [eq(charges.requestedAmount, query.amount)] : []),
      ...(query.last4
        ? [anyOf(eq(charges.cardLast4, query.last4), sql`${charges.ach}->>'last4' = ${query.last4}`)]
        : []),
    ],
    positionOf: async (id) => {
      const [row] = await db
        .select({ seq: charges.seq })
        .from(charges)
        .where(and(inScope, eq(charges.id, id)));
      return row?.seq ?? null;
    },
    select: (where, orderBy, limit) => db.select().from(charges).where(where).orderBy(orderBy).limit(limit),
  });
  // The merchants of the page, loaded once for the charges' `merchant` blocks.
  const ids = [...new Set(page.rows.map((r) => r.merchantId))];
  const rows: MerchantRow[] = ids.length ? await db.select().from(merchants).where(inArray(merchants.id, ids)) : [];
  const byId = new Map(rows.map((m) => [m.id, m]));
  const [refunds, rowsWithNets] = await Promise.all([
    refundsOfCharges(
      db,
      page.rows.map((r) => r.id),
    ),
    withLedgerFacts(db, page.rows),
  ]);
  return {
    ...page,
    rows: rowsWithNets,
    merchantOf: (charge: ChargeRow) => must(byId.get(charge.merchantId), "the merchant of a listed charge"),
    refundsOf: (charge: ChargeRow) => refunds.get(charge.id) ?? [],
  };
}
