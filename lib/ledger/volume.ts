import { and, eq, gte, inArray, isNull, sql } from "drizzle-orm";

import { rowsOf } from "../db/client";
import { ledgerPostings } from "../db/schema";
import { type DbOrTx } from "../db/types";
import { settlementFigures } from "./settlement-figures";

/**
 * What merchants took from `since` on (docs/reference.md section 18), read from the ledger: the net
 * of the payments, refunds, ACH returns and reversed returns written in that time, in cents; and how
 * many payments were made in it and are still kept (a payment its bank returned in that time is not
 * counted, unless the return was reversed). `isvAccountId`: only that ISV's. Merchants with nothing are absent.
 */
export async function netVolumes(
  db: DbOrTx,
  merchantIds: readonly string[],
  since: Date,
  isvAccountId?: string,
): Promise<Map<string, { amount: number; count: number }>> {
  const out = new Map<string, { amount: number; count: number }>();
  if (merchantIds.length === 0) return out;
  const rows = rowsOf<{ merchant_id: string; amount: string | number; count: string | number }>(
    await db.execute(sql`
      select p.merchant_id, sum(p.amount) as amount,
        count(*) filter (where p.type = 'charge')
          - count(*) filter (where p.type = 'ach_return' and c.id is not null)
          + count(*) filter (where p.type = 'ach_return_reversal' and c.id is not null) as count
      from ledger_postings p
      left join ledger_postings c on p.type in ('ach_return', 'ach_return_reversal')
        and c.source_id = p.source_id and c.type = 'charge' and c.created_at >= ${since.toISOString()}
      where p.merchant_id in (${sql.join(
        merchantIds.map((id) => sql`${id}`),
        sql`, `,
      )})
        ${isvAccountId ? sql`and p.isv_account_id = ${isvAccountId}` : sql``}
        and p.type in ('charge', 'refund', 'ach_return', 'ach_return_reversal')
        and p.created_at >= ${since.toISOString()}
      group by p.merchant_id`),
  );
  for (const row of rows) out.set(row.merchant_id, { amount: Number(row.amount), count: Number(row.count) });
  return out;
}

/**
 * What the merchant's next settlement takes so far: the figures of its postings no settlement has
 * taken yet (./settlement-figures.ts), with the negative net of the last settlement carried in.
 */
export async function nextSettlementFigures(db: DbOrTx, merchantId: string, carriedIn: number) {
  const untaken = await db
    .select({
      type: ledgerPostings.type,
      sourceId: ledgerPostings.sourceId,
      amount: ledgerPostings.amount,
      fee: ledgerPostings.fee,
      net: ledgerPostings.net,
    })
    .from(ledgerPostings)
    .where(
      and(
        eq(ledgerPostings.merchantId, merchantId),
        isNull(ledgerPostings.settlementId),
        eq(ledgerPostings.movesPending, true),
      ),
    );
  return settlementFigures(untaken, carriedIn);
}

/**
 * An ISV's money by UTC day from `from` on, read from the ledger (docs/reference.md section 18):
 * its gross volume (what its merchants' customers paid: the charge postings' amounts) and how many
 * payments, and what refunds gave back (positive) and how many. The one definition of gross volume;
 * net volume (after refunds, returns and reversed returns) is `netVolumes`'.
 */
export async function dailyActivity(db: DbOrTx, isvAccountId: string, from: Date) {
  const day = sql<string>`to_char(${ledgerPostings.createdAt} at time zone 'UTC', 'YYYY-MM-DD')`;
  const rows = await db
    .select({
      day,
      volume: sql<string>`coalesce(sum(${ledgerPostings.amount}) filter (where ${ledgerPostings.type} = 'charge'), 0)`,
      payments: sql<string>`count(*) filter (where ${ledgerPostings.type} = 'charge')`,
      refunds: sql<string>`coalesce(0 - sum(${ledgerPostings.amount}) filter (where ${ledgerPostings.type} = 'refund'), 0)`,
      refundCount: sql<string>`count(*) filter (where ${ledgerPostings.type} = 'refund')`,
    })
    .from(ledgerPostings)
    .where(
      and(
        eq(ledgerPostings.isvAccountId, isvAccountId),
        gte(ledgerPostings.createdAt, from),
        inArray(ledgerPostings.type, ["charge", "refund"]),
      ),
    )
    .groupBy(day);
  return rows.map((r) => ({
    day: r.day,
    volume: Number(r.volume),
    payments: Number(r.payments),
    refunds: Number(r.refunds),
    refundCount: Number(r.refundCount),
  }));
}
