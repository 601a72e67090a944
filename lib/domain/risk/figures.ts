import { sql } from "drizzle-orm";

import { rowsOf } from "../../db/client";
import { type DbOrTx } from "../../db/types";
import { type RiskRule } from "../../schemas/risk";

// The daily risk job's figures (docs/reference.md section 20), for every approved merchant at once:
// one statement reads each merchant's declared sales and its charges, refunds, disputes and declines
// of the windows the rules look at, and answers the rules each merchant broke.

const DAY_MS = 86_400_000;
const isoDay = (at: Date) => at.toISOString().slice(0, 10);

export type Broken = {
  merchantId: string;
  isvAccountId: string;
  rule: RiskRule;
  /** The alert's once-only key: the month, the day, or the charge. */
  period: string;
  figures: Record<string, number | string>;
};

type Row = {
  merchant_id: string;
  isv_account_id: string;
  declared_monthly: string | number | null;
  declared_highest: string | number | null;
  month_volume: string | number;
  volume_30: string | number;
  card_charges_30: string | number;
  largest_day: string | number | null;
  largest_id: string | null;
  declines_day: string | number;
  attempts_day: string | number;
  refunds_30: string | number;
  disputes_30: string | number;
};

/**
 * The rules broken on `day` (the run's UTC midnight: it looks at what happened before it). The day
 * is the day before `day`; the month is that day's month, pro rata to the days gone; the 30 days end
 * at `day`. `merchantId`: one merchant only (tests).
 */
export async function brokenRules(db: DbOrTx, day: Date, merchantId?: string): Promise<Broken[]> {
  const end = new Date(Math.floor(day.getTime() / DAY_MS) * DAY_MS);
  const yesterday = new Date(end.getTime() - DAY_MS);
  const monthStart = new Date(Date.UTC(yesterday.getUTCFullYear(), yesterday.getUTCMonth(), 1));
  const from30 = new Date(end.getTime() - 30 * DAY_MS);
  const since = monthStart < from30 ? monthStart : from30;
  const daysGone = yesterday.getUTCDate();
  const daysInMonth = new Date(Date.UTC(yesterday.getUTCFullYear(), yesterday.getUTCMonth() + 1, 0)).getUTCDate();
  const month = isoDay(yesterday).slice(0, 7);
  const one = merchantId ? sql`and m.id = ${merchantId}` : sql``;
  const rows = rowsOf<Row>(
    await db.execute(sql`
      with m as (
        select m.id, m.isv_account_id,
          round(100 * nullif(m.application->'current_sales'->>'average_monthly_in_credit_card', '')::numeric) as declared_monthly,
          round(100 * nullif(m.application->'current_sales'->>'highest_amount_to_date', '')::numeric) as declared_highest
        from merchants m where m.lead_onboarding_status = 'APPROVED' and not m.deactivated ${one}
      ),
      c as (
        select c.merchant_id,
          coalesce(sum(c.amount_captured) filter (where c.status <> 'FAILED' and c.payment_method = 'card' and c.created_at >= ${monthStart}), 0) as month_volume,
          coalesce(sum(c.amount_captured) filter (where c.status <> 'FAILED' and c.created_at >= ${from30}), 0) as volume_30,
          count(*) filter (where c.status <> 'FAILED' and c.payment_method = 'card' and c.created_at >= ${from30}) as card_charges_30,
          max(c.amount_captured) filter (where c.status <> 'FAILED' and c.created_at >= ${yesterday}) as largest_day,
          (array_agg(c.id order by c.amount_captured desc, c.id) filter (where c.status <> 'FAILED' and c.created_at >= ${yesterday}))[1] as largest_id,
          count(*) filter (where c.status = 'FAILED' and c.created_at >= ${yesterday}) as declines_day,
          count(*) filter (where c.created_at >= ${yesterday}) as attempts_day
        from charges c join m on m.id = c.merchant_id
        where c.created_at >= ${since} and c.created_at < ${end}
        group by c.merchant_id
      ),
      r as (
        select r.merchant_id, sum(r.amount) as refunds_30 from refunds r join m on m.id = r.merchant_id
        where r.status = 'succeeded' and r.created_at >= ${from30} and r.created_at < ${end} group by r.merchant_id
      ),
      d as (
        select d.merchant_id, count(*) as disputes_30 from disputes d join m on m.id = d.merchant_id
        where d.created_at >= ${from30} and d.created_at < ${end} group by d.merchant_id
      )
      select m.id as merchant_id, m.isv_account_id, m.declared_monthly, m.declared_highest,
        c.month_volume, c.volume_30, c.card_charges_30, c.largest_day, c.largest_id, c.declines_day, c.attempts_day,
        coalesce(r.refunds_30, 0) as refunds_30, coalesce(d.disputes_30, 0) as disputes_30
      from m join c on c.merchant_id = m.id
      left join r on r.merchant_id = m.id left join d on d.merchant_id = m.id`),
  );
  const broken: Broken[] = [];
  for (const row of rows) {
    const n = (v: string | number | null) => (v === null ? null : Number(v));
    const base = { merchantId: row.merchant_id, isvAccountId: row.isv_account_id };
    const declaredMonthly = n(row.declared_monthly);
    const monthVolume = Number(row.month_volume);
    if (declaredMonthly !== null) {
      // 1.5 × the declared month, pro rata to the days gone: in whole cents, rounded down.
      const limit = Math.floor((declaredMonthly * 3 * daysGone) / (2 * daysInMonth));
      if (monthVolume > limit)
        broken.push({
          ...base,
          rule: "volume_over_declared",
          period: month,
          figures: { month_volume: monthVolume, declared_monthly: declaredMonthly, limit, days: daysGone },
        });
    }
    const declaredHighest = n(row.declared_highest);
    const largest = n(row.largest_day);
    if (declaredHighest !== null && largest !== null && row.largest_id && largest > 2 * declaredHighest)
      broken.push({
        ...base,
        rule: "large_ticket",
        period: row.largest_id,
        figures: {
          charge_id: row.largest_id,
          amount: largest,
          declared_highest: declaredHighest,
          limit: 2 * declaredHighest,
        },
      });
    const volume30 = Number(row.volume_30);
    const refunds30 = Number(row.refunds_30);
    // Over 10 %: refunds × 10 > volume (no division, no rounding).
    if (refunds30 > 0 && refunds30 * 10 > volume30)
      broken.push({
        ...base,
        rule: "refund_rate",
        period: month,
        figures: {
          refunds: refunds30,
          volume: volume30,
          rate_bps: volume30 ? Math.floor((refunds30 * 10_000) / volume30) : 10_000,
          limit_bps: 1_000,
        },
      });
    const cardCharges = Number(row.card_charges_30);
    const disputes30 = Number(row.disputes_30);
    // Over 0.75 %: disputes × 10,000 > charges × 75.
    if (disputes30 > 0 && disputes30 * 10_000 > cardCharges * 75)
      broken.push({
        ...base,
        rule: "dispute_rate",
        period: month,
        figures: {
          disputes: disputes30,
          card_charges: cardCharges,
          rate_bps: cardCharges ? Math.floor((disputes30 * 10_000) / cardCharges) : 10_000,
          limit_bps: 75,
        },
      });
    const declines = Number(row.declines_day);
    const attempts = Number(row.attempts_day);
    if (declines >= 10 && declines * 2 >= attempts)
      broken.push({
        ...base,
        rule: "decline_spike",
        period: isoDay(yesterday),
        figures: { declines, attempts, day: isoDay(yesterday) },
      });
  }
  return broken;
}
