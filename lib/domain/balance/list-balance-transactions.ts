import { and, eq, gte, inArray, lte, sql } from "drizzle-orm";

import { cursorPage } from "../../db/cursor-page";
import { ledgerPostings } from "../../db/schema";
import { type DbOrTx } from "../../db/types";
import { notFound } from "../../errors";
import type { BalanceTransactionListQuery } from "../../schemas/balance";
import { balanceTransactionTypes } from "../../schemas/ledger-values";
import type { ListQuery } from "../../schemas/list";
import { type Scope, withinScope } from "../scope";

/** The postings a merchant sees as balance transactions (not the platform's own moves). */
export const publicPostings = (scope: Scope) =>
  sql`${withinScope(ledgerPostings, scope)} and ${inArray(ledgerPostings.type, [...balanceTransactionTypes])}`;

/** GET /v1/balance_transactions: newest first, with the filters of docs/reference.md section 18. */
export async function listBalanceTransactions(
  db: DbOrTx,
  scope: Scope,
  query: ListQuery & BalanceTransactionListQuery,
) {
  const filters = [
    publicPostings(scope),
    ...(query.merchant_id ? [eq(ledgerPostings.merchantId, query.merchant_id)] : []),
    ...(query.payout
      ? [sql`(${eq(ledgerPostings.payoutId, query.payout)} or ${eq(ledgerPostings.sourceId, query.payout)})`]
      : []),
    ...(query.type ? [eq(ledgerPostings.type, query.type)] : []),
    ...(query.source ? [eq(ledgerPostings.sourceId, query.source)] : []),
    ...(query["created[gte]"] !== undefined ? [gte(ledgerPostings.createdAt, new Date(query["created[gte]"]))] : []),
    ...(query["created[lte]"] !== undefined ? [lte(ledgerPostings.createdAt, new Date(query["created[lte]"]))] : []),
    ...(query["available_on[gte]"] ? [gte(ledgerPostings.availableOn, query["available_on[gte]"])] : []),
    ...(query["available_on[lte]"] ? [lte(ledgerPostings.availableOn, query["available_on[lte]"])] : []),
  ];
  return cursorPage(query, {
    noun: "balance_transaction",
    seq: ledgerPostings.seq,
    filters,
    positionOf: async (id) => {
      const [row] = await db
        .select({ seq: ledgerPostings.seq })
        .from(ledgerPostings)
        .where(and(publicPostings(scope), eq(ledgerPostings.id, id)));
      return row?.seq ?? null;
    },
    select: (where, orderBy, limit) => db.select().from(ledgerPostings).where(where).orderBy(orderBy).limit(limit),
  });
}

/** One balance transaction within the caller's scope (another account's, or the platform's own move, is a 404). */
export async function findBalanceTransaction(db: DbOrTx, scope: Scope, id: string) {
  const [row] = await db
    .select()
    .from(ledgerPostings)
    .where(and(eq(ledgerPostings.id, id), publicPostings(scope)));
  if (!row) throw notFound("balance_transaction", id);
  return row;
}
