import { type SQL, sql } from "drizzle-orm";

import { rowsOf } from "../db/client";
import { compiledStatement } from "../db/prepared";
import { type DbOrTx } from "../db/types";

// What dunning recovered (docs/reference.md section 21), read from the ledger like every figure of
// money: the amounts the ledger kept of the payments that paid a subscription's invoice after one of
// its charges had failed (a retry that went through, or the customer paying from the e-mailed link),
// less what was refunded of them or returned by their bank.

/** SQL: the recovered charges of the invoices `where` selects (`pr` is payment_requests). */
const recoveredCharges = (where: SQL) => sql`
  select pr.subscription_id, c.id as charge_id
  from payment_requests pr
  join charges c on c.payment_request_id = pr.id and c.status <> 'FAILED'
  where pr.subscription_id is not null and ${where}
    and exists (select 1 from charges f where f.payment_request_id = pr.id and f.status = 'FAILED')`;

/** SQL: per subscription, what the ledger kept of the recovered charges, refunds and returns deducted. */
export const keptOf = (where: SQL) => sql`
  with rc as (${recoveredCharges(where)})
  select subscription_id, sum(amount)::bigint as amount from (
    select rc.subscription_id, p.amount from rc
      join ledger_postings p on p.source_id = rc.charge_id and p.type in ('charge', 'ach_return', 'ach_return_reversal')
    union all
    select rc.subscription_id, p.amount from rc
      join refunds r on r.charge_id = rc.charge_id
      join ledger_postings p on p.source_id = r.id and p.type = 'refund'
  ) kept group by subscription_id`;

/**
 * SQL: what one subscription's dunning recovered, in cents, as a column of a larger read (the
 * subscription's own, under its lock): `id` is its id (a value, a placeholder or a column).
 */
export const recoveredOfOne = (id: unknown) =>
  sql<number>`(select coalesce(sum(kept.amount), 0)::bigint from (${keptOf(sql`pr.subscription_id = ${id}`)}) kept)`.mapWith(
    Number,
  );

type Row = { subscription_id: string; amount: string | number };

/** One subscription's (every event of a renewal, a retry or a change reads it): planned once per connection. */
const keptOfOne = compiledStatement("subscription_recovered", () =>
  keptOf(sql`pr.subscription_id = ${sql.placeholder("id")}`),
);

/** What each subscription's dunning recovered, in cents (0 for one that recovered nothing). */
export async function recoveredBySubscription(db: DbOrTx, subscriptionIds: readonly string[]) {
  const out = new Map<string, number>(subscriptionIds.map((id) => [id, 0]));
  if (subscriptionIds.length === 0) return out;
  if (out.size === 1) {
    const [id] = out.keys();
    for (const row of rowsOf<Row>(await keptOfOne(db, { id }))) out.set(row.subscription_id, Number(row.amount));
    return out;
  }
  const ids = sql.join(
    [...new Set(subscriptionIds)].map((id) => sql`${id}`),
    sql`, `,
  );
  for (const row of rowsOf<Row>(await db.execute(keptOf(sql`pr.subscription_id in (${ids})`))))
    out.set(row.subscription_id, Number(row.amount));
  return out;
}

/** What dunning recovered across an ISV's subscriptions, or one merchant's, in cents. */
export async function recoveredWithin(db: DbOrTx, isvAccountId: string, merchantId?: string) {
  const where = merchantId
    ? sql`pr.isv_account_id = ${isvAccountId} and pr.merchant_id = ${merchantId}`
    : sql`pr.isv_account_id = ${isvAccountId}`;
  const rows = rowsOf<Row>(await db.execute(keptOf(where)));
  return rows.reduce((sum, r) => sum + Number(r.amount), 0);
}

/**
 * Subscription payments per month (UTC) from `since` on, as the ledger wrote them: those paid on the
 * first try and those recovered after a failed attempt (refunds are not counted off here: this is
 * what came in each month). Months with nothing are absent.
 */
export async function subscriptionCollections(db: DbOrTx, since: Date, isvAccountId: string, merchantId?: string) {
  const rows = rowsOf<{ month: string; first_try: string | number; recovered: string | number }>(
    await db.execute(sql`
      select to_char(date_trunc('month', p.created_at at time zone 'UTC'), 'YYYY-MM') as month,
        coalesce(sum(p.amount) filter (where not f.failed), 0)::bigint as first_try,
        coalesce(sum(p.amount) filter (where f.failed), 0)::bigint as recovered
      from ledger_postings p
      join charges c on c.id = p.source_id
      join payment_requests pr on pr.id = c.payment_request_id
      cross join lateral (select exists (
        select 1 from charges x where x.payment_request_id = pr.id and x.status = 'FAILED') as failed) f
      where p.type = 'charge' and pr.subscription_id is not null
        and p.isv_account_id = ${isvAccountId} ${merchantId ? sql`and p.merchant_id = ${merchantId}` : sql``}
        and p.created_at >= ${since.toISOString()}
      group by 1 order by 1`),
  );
  return new Map(rows.map((r) => [r.month, { firstTry: Number(r.first_try), recovered: Number(r.recovered) }]));
}
