import { and, asc, eq, getTableName, gte, inArray, lt, sql } from "drizzle-orm";
import { type PgTable } from "drizzle-orm/pg-core";

import { ledgerPostings } from "../db/schema";
import { type DbOrTx } from "../db/types";
import { type PostingType } from "../schemas/ledger-values";

// What the domain's documents read of the ledger (a settlement's page, a statement): the postings
// themselves, read here so that the ledger's tables are read in lib/ledger alone.

/** A posting's figures as a settlement or a statement counts them (./settlement-figures.ts). */
export const postingFigures = {
  id: ledgerPostings.id,
  type: ledgerPostings.type,
  sourceId: ledgerPostings.sourceId,
  amount: ledgerPostings.amount,
  fee: ledgerPostings.fee,
  net: ledgerPostings.net,
};

/** The postings a settlement took, in the order they were written. */
export function settlementPostings(db: DbOrTx, settlementId: string) {
  return db
    .select()
    .from(ledgerPostings)
    .where(eq(ledgerPostings.settlementId, settlementId))
    .orderBy(asc(ledgerPostings.seq));
}

/** A merchant's postings of these types written in [start, end), oldest first (a statement's month). */
export function merchantPostingsBetween(
  db: DbOrTx,
  merchantId: string,
  types: readonly PostingType[],
  start: Date,
  end: Date,
) {
  return db
    .select({ ...postingFigures, createdAt: ledgerPostings.createdAt })
    .from(ledgerPostings)
    .where(
      and(
        eq(ledgerPostings.merchantId, merchantId),
        inArray(ledgerPostings.type, [...types]),
        gte(ledgerPostings.createdAt, start),
        lt(ledgerPostings.createdAt, end),
      ),
    )
    .orderBy(asc(ledgerPostings.createdAt), asc(ledgerPostings.seq));
}

/**
 * SQL: the settlement that took the posting of this type whose source is the row's `id` in `table`
 * (null until one did): what an object shows as its `settlement_id` is the ledger's, e.g. a
 * dispute's amount and its won amount. The row's id is named with its table: inside the subquery an
 * unqualified `id` would be the posting's.
 */
export const settlementThatTook = (type: PostingType, table: PgTable) =>
  sql<
    string | null
  >`(select lp.settlement_id from ledger_postings lp where lp.type = ${type} and lp.source_id = ${sql.identifier(getTableName(table))}.id limit 1)`;

/** SQL: the ids of the sources of this type's postings that the settlement took (a subquery for `in (...)`). */
export const sourcesTakenBy = (settlementId: string, type: PostingType) =>
  sql`select lp.source_id from ledger_postings lp where lp.settlement_id = ${settlementId} and lp.type = ${type}`;
