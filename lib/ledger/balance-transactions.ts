import { and, asc, eq, gte, inArray, lt, lte, sql } from "drizzle-orm";

import { cursorPage } from "../db/cursor-page";
import { ledgerPostings } from "../db/schema";
import { type DbOrTx } from "../db/types";
import type { BalanceTransactionListQuery } from "../schemas/balance";
import { balanceTransactionTypes } from "../schemas/ledger-values";
import type { ListQuery } from "../schemas/list";

// The ledger's postings as the API shows them (docs/reference.md section 18): balance transactions,
// the public ones only (not the platform's own moves), within an owner: an ISV's (its merchants' and
// its own) or one merchant's. The ledger's tables are read here, never outside lib/ledger.

/** Whose postings may be read: an ISV's, or one of its merchants' (the domain's `Scope`). */
export type LedgerOwner = { isvAccountId: string; merchantId?: string };

const ownedBy = (owner: LedgerOwner) =>
  owner.merchantId
    ? sql`${eq(ledgerPostings.isvAccountId, owner.isvAccountId)} and ${eq(ledgerPostings.merchantId, owner.merchantId)}`
    : eq(ledgerPostings.isvAccountId, owner.isvAccountId);

/** The postings a merchant sees as balance transactions (not the platform's own moves). */
const publicPostings = (owner: LedgerOwner) =>
  sql`${ownedBy(owner)} and ${inArray(ledgerPostings.type, [...balanceTransactionTypes])}`;

/** Not a payout's own `payout` posting (a manual payout's, taken as a line of a later payout, is one of its lines). */
const notItsOwnPayout = sql`not (${ledgerPostings.type} = 'payout' and ${ledgerPostings.sourceId} = ${ledgerPostings.payoutId})`;

/** GET /v1/balance_transactions: newest first, with the filters of docs/reference.md section 18. */
export async function listBalanceTransactions(
  db: DbOrTx,
  owner: LedgerOwner,
  query: ListQuery & BalanceTransactionListQuery,
) {
  const filters = [
    publicPostings(owner),
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
    positionOf: async (id) => (await balanceTransaction(db, owner, id))?.seq ?? null,
    select: (where, orderBy, limit) => db.select().from(ledgerPostings).where(where).orderBy(orderBy).limit(limit),
  });
}

/** One balance transaction within the owner's (null: another's, or the platform's own move). */
export async function balanceTransaction(db: DbOrTx, owner: LedgerOwner, id: string) {
  const [row] = await db
    .select()
    .from(ledgerPostings)
    .where(and(eq(ledgerPostings.id, id), publicPostings(owner)));
  return row ?? null;
}

/** The balance transactions a payout paid out (not its own `payout` line; a manual payout's is one), oldest first. */
export function payoutLinePostings(db: DbOrTx, owner: LedgerOwner, payoutId: string) {
  return db
    .select()
    .from(ledgerPostings)
    .where(and(publicPostings(owner), eq(ledgerPostings.payoutId, payoutId), notItsOwnPayout))
    .orderBy(asc(ledgerPostings.seq));
}

/** The owner's balance transactions written in [start, end), in the order they were written (a report). */
export function balanceTransactionsBetween(db: DbOrTx, owner: LedgerOwner, start: Date, end: Date) {
  return db
    .select()
    .from(ledgerPostings)
    .where(
      sql`${publicPostings(owner)} and ${gte(ledgerPostings.createdAt, start)} and ${lt(ledgerPostings.createdAt, end)}`,
    )
    .orderBy(asc(ledgerPostings.seq));
}

/** The lines these payouts paid out (not their own `payout` lines), in the order they were written. */
export function payoutLinesOf(db: DbOrTx, owner: LedgerOwner, payoutIds: readonly string[]) {
  if (payoutIds.length === 0) return Promise.resolve([]);
  return db
    .select()
    .from(ledgerPostings)
    .where(sql`${publicPostings(owner)} and ${inArray(ledgerPostings.payoutId, [...payoutIds])} and ${notItsOwnPayout}`)
    .orderBy(asc(ledgerPostings.seq));
}
