import { and, asc, eq, getTableName, gte, inArray, lt, type SQL, sql } from "drizzle-orm";
import { type PgTable } from "drizzle-orm/pg-core";

import { rowsOf } from "../db/client";
import { compiledStatement } from "../db/prepared";
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

/**
 * SQL: the settlements whose postings the payout (an SQL expression naming its id) paid out, as its
 * lines (a subquery for `in (...)`): a weekly payout pays several days' settlements.
 */
export const settlementsPaidBy = (payoutId: ReturnType<typeof sql>) =>
  sql`select distinct lp.settlement_id from ledger_postings lp where lp.payout_id = ${payoutId} and lp.settlement_id is not null`;

/** The posting types a charge's `net` adds up: its own and its refunds' (disputes are the dispute's). */
const chargeNetTypes: PostingType[] = [
  "charge",
  "platform_fee",
  "ach_return",
  "ach_return_reversal",
  "refund",
  "platform_fee_refund",
];
/**
 * A new charge's facts from the postings its payment just wrote (what chargeLedgerFacts would read
 * back: no refund and no settlement can have touched it yet); undefined when none was (declined).
 */
export function newChargeFacts(
  chargeId: string,
  written: readonly { type: PostingType; sourceId: string; net: number; settlementId: string | null }[],
): { net: number; settlementId: string | null } | undefined {
  const own = written.filter((p) => p.sourceId === chargeId && chargeNetTypes.includes(p.type));
  if (own.length === 0) return undefined;
  return {
    net: own.reduce((sum, p) => sum + p.net, 0),
    settlementId: own.find((p) => p.type === "charge")?.settlementId ?? null,
  };
}

const chargeNetSql = sql.join(
  chargeNetTypes.map((t) => sql`${t}`),
  sql`, `,
);

/**
 * What the ledger says of each charge (docs/reference.md section 13): its `net`, what the payment
 * leaves its merchant, the nets of its postings (its amount less its fee, its platform fee, an ACH
 * return and its reversal) and of its refunds' (the amount given back, the platform fee given back);
 * and its `settlementId`, the settlement that took its charge posting (null until one did). A charge
 * with no posting (declined) is absent. One query per thousand charges.
 */
export async function chargeLedgerFacts(
  db: DbOrTx,
  chargeIds: readonly string[],
): Promise<Map<string, { net: number; settlementId: string | null }>> {
  const facts = new Map<string, { net: number; settlementId: string | null }>();
  const unique = [...new Set(chargeIds)];
  const read = (rows: unknown) => {
    for (const r of rowsOf<{ charge_id: string; net: number; settlement_id: string | null }>(rows))
      facts.set(r.charge_id, { net: Number(r.net), settlementId: r.settlement_id });
  };
  if (unique.length === 1) {
    read(await chargeFactsOfOne(db, { id: unique[0] }));
    return facts;
  }
  // A settlement's charges may be thousands: a thousand ids per query keeps each under the parameter limit.
  for (let i = 0; i < unique.length; i += 1000) {
    const ids = sql.join(
      unique.slice(i, i + 1000).map((id) => sql`${id}`),
      sql`, `,
    );
    read(await db.execute(chargeFactsOf(ids)));
  }
  return facts;
}

/**
 * The facts' query for the charges `ids` lists (SQL: one id, a placeholder, or ids joined by commas):
 * the charges' own postings and their refunds', each found through an index (the posting's source,
 * the refund's charge), in two parts: one condition with an `or` between them made PostgreSQL read
 * every posting of the ledger, and a list of both in one array was planned as if it were long.
 */
export const chargeFactsOf = (ids: SQL) =>
  sql`select charge_id, sum(net)::int as net, max(settlement_id) filter (where type = 'charge') as settlement_id
      from (
        select p.source_id as charge_id, p.net, p.settlement_id, p.type from ledger_postings p
        where p.type in (${chargeNetSql}) and p.source_id in (${ids})
        union all
        select r.charge_id, p.net, p.settlement_id, p.type from refunds r join ledger_postings p on p.source_id = r.id
        where p.type in (${chargeNetSql}) and r.charge_id in (${ids})
      ) facts
      group by 1`;

/** One charge's (a payment's outcome, a charge's read): planned once per connection. */
const chargeFactsOfOne = compiledStatement("charge_ledger_facts", () => chargeFactsOf(sql`${sql.placeholder("id")}`));
