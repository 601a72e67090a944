import { sql } from "drizzle-orm";

import { rowsOf } from "../db/client";
import { type DbOrTx } from "../db/types";

/** A merchant's month, as the residual counts it (lib/domain/residuals/figures.ts). */
export type MerchantMonth = {
  merchantId: string;
  volume: number;
  count: number;
  merchantFees: number;
  costs: number;
  platformFees: number;
};

/**
 * Each merchant's sums for a month [start, end) (docs/reference.md section 19), in two statements:
 * its captured charges (volume, count), the fees it paid (the charges' processing fees, the dispute
 * fees and the month-end fees taken in the month) and the ISV's platform fees less their refunds; and
 * what its month cost the platform (the `cost` postings of its charges, its disputes and its banks'
 * returns); the ISV's instant payout markups join its platform fees. Merchants with none are absent.
 */
export async function merchantMonthSums(
  db: DbOrTx,
  isvAccountId: string,
  start: Date,
  end: Date,
): Promise<MerchantMonth[]> {
  const from = start.toISOString();
  const to = end.toISOString();
  const postings = rowsOf<{
    merchant_id: string;
    volume: string | number;
    count: string | number;
    merchant_fees: string | number;
    platform_fees: string | number;
  }>(
    await db.execute(sql`
      select p.merchant_id,
        coalesce(sum(p.amount) filter (where p.type = 'charge'), 0) as volume,
        count(*) filter (where p.type = 'charge') as count,
        coalesce(sum(p.fee) filter (where p.type = 'charge'), 0)
          - coalesce(sum(p.amount) filter (where p.type in ('dispute_fee', 'monthly_fee')), 0) as merchant_fees,
        0 - coalesce(sum(p.amount) filter (where p.type in ('platform_fee', 'platform_fee_refund')), 0) as platform_fees
      from ledger_postings p
      where p.isv_account_id = ${isvAccountId} and p.merchant_id is not null
        and p.type in ('charge', 'dispute_fee', 'monthly_fee', 'platform_fee', 'platform_fee_refund')
        and p.created_at >= ${from} and p.created_at < ${to}
      group by p.merchant_id`),
  );
  const costs = rowsOf<{ merchant_id: string; costs: string | number }>(
    await db.execute(sql`
      select p.merchant_id, sum(e.amount) as costs
      from ledger_postings p join ledger_entries e on e.posting_id = p.id and e.account = 'processing_costs'
      where p.isv_account_id = ${isvAccountId} and p.type = 'cost'
        and p.created_at >= ${from} and p.created_at < ${to}
      group by p.merchant_id`),
  );
  // The ISV's markup on its merchants' instant payouts (docs/reference.md section 20): in its revenue
  // when the payout was made, like a platform fee, and counted with them (a refused payout's markup
  // given back nets it out).
  const markups = rowsOf<{ merchant_id: string; markup: string | number }>(
    await db.execute(sql`
      select p.merchant_id, sum(e.amount) as markup
      from ledger_postings p join ledger_entries e on e.posting_id = p.id and e.account = 'revenue'
      where p.isv_account_id = ${isvAccountId} and p.type = 'instant_payout_fee'
        and p.created_at >= ${from} and p.created_at < ${to}
      group by p.merchant_id`),
  );
  const months = new Map<string, MerchantMonth>();
  const of = (merchantId: string) => {
    const month = months.get(merchantId) ?? {
      merchantId,
      volume: 0,
      count: 0,
      merchantFees: 0,
      costs: 0,
      platformFees: 0,
    };
    months.set(merchantId, month);
    return month;
  };
  for (const row of postings)
    Object.assign(of(row.merchant_id), {
      volume: Number(row.volume),
      count: Number(row.count),
      merchantFees: Number(row.merchant_fees),
      platformFees: Number(row.platform_fees),
    });
  for (const row of costs) of(row.merchant_id).costs = Number(row.costs);
  for (const row of markups) of(row.merchant_id).platformFees += Number(row.markup);
  return [...months.values()];
}
