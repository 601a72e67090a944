import { and, asc, count, eq, gte, inArray, isNotNull, ne, type SQL, sql } from "drizzle-orm";
import { type PgColumn, type PgTable } from "drizzle-orm/pg-core";

import { clock } from "../../clock";
import { disputes, merchants, onboardingLinks, payouts } from "../../db/schema";
import { type DbOrTx } from "../../db/types";
import { dailyActivity } from "../../ledger/volume";
import { businessName } from "../../merchants/facts";
import { ofMerchants } from "../payouts/recipient";

/** The days the overview's chart shows, today included. */
export const OVERVIEW_DAYS = 30;

/** One UTC day's figures (YYYY-MM-DD). */
export type OverviewDay = {
  day: string;
  volume: number;
  payments: number;
  refunds: number;
  refundCount: number;
  disputes: number;
  newMerchants: number;
  linksOpened: number;
  submitted: number;
  approved: number;
};

/** A period's figures: the sum of its days. */
export type OverviewPeriod = Omit<OverviewDay, "day"> & { from: string };

const zero = (day: string): OverviewDay => ({
  day,
  volume: 0,
  payments: 0,
  refunds: 0,
  refundCount: 0,
  disputes: 0,
  newMerchants: 0,
  linksOpened: 0,
  submitted: 0,
  approved: 0,
});

const dayOf = (date: Date) => date.toISOString().slice(0, 10);

/** The starts (UTC midnights) of today, this week (Monday) and this month. */
export function periodStarts(now: Date) {
  const today = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
  const week = new Date(today.getTime() - ((today.getUTCDay() + 6) % 7) * 86_400_000);
  const month = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
  return { today, week, month };
}

/** The sum of the days from `from` on. */
export function periodOf(days: OverviewDay[], from: Date): OverviewPeriod {
  const start = dayOf(from);
  const sum = zero(start);
  for (const d of days) {
    if (d.day < start) continue;
    for (const key of Object.keys(sum) as (keyof OverviewDay)[])
      if (key !== "day") (sum[key] as number) += d[key] as number;
  }
  const { day: _day, ...figures } = sum;
  return { ...figures, from: start };
}

/** Rows of (UTC day, figures) of one table's rows of this ISV since `from`: an indexed range, grouped by day. */
function daily<T extends Record<string, SQL>>(
  db: DbOrTx,
  table: PgTable,
  isvColumn: PgColumn,
  atColumn: PgColumn,
  isvAccountId: string,
  from: Date,
  figures: T,
  where?: SQL,
) {
  const day = sql<string>`to_char(${atColumn} at time zone 'UTC', 'YYYY-MM-DD')`;
  return db
    .select({ day, ...figures })
    .from(table)
    .where(and(eq(isvColumn, isvAccountId), gte(atColumn, from), where))
    .groupBy(day) as unknown as Promise<({ day: string } & { [K in keyof T]: unknown })[]>;
}

const n = (value: unknown) => Number(value ?? 0);

/**
 * The ISV dashboard's overview (docs/reference.md section 23): each UTC day of the last 30 (and of
 * this month and week when they began earlier) with its payments, refunds, disputes, new merchants
 * and onboarding funnel, from which today, this week and this month are summed; the median time
 * from a merchant's creation to its approval this month; and what needs the ISV's attention. Every
 * figure is an indexed range of this ISV's rows since the earliest of those days, grouped by day:
 * its cost grows with the month's rows, not with the history's.
 */
export async function dashboardOverview(db: DbOrTx, isvAccountId: string, now = clock.now()) {
  const starts = periodStarts(now);
  const chartFrom = new Date(starts.today.getTime() - (OVERVIEW_DAYS - 1) * 86_400_000);
  const from = new Date(Math.min(chartFrom.getTime(), starts.week.getTime(), starts.month.getTime()));
  const countAll = sql<number>`count(*)::int`;

  const [
    activity,
    opened,
    created,
    linksOpened,
    submitted,
    approved,
    median,
    waiting,
    waitingCount,
    due,
    dueCount,
    failed,
    failedCount,
  ] = await Promise.all([
    // Gross volume and refunds from the ledger, as every money figure (lib/ledger/volume.ts).
    dailyActivity(db, isvAccountId, from),
    daily(db, disputes, disputes.isvAccountId, disputes.createdAt, isvAccountId, from, { disputes: countAll }),
    daily(db, merchants, merchants.isvAccountId, merchants.createdAt, isvAccountId, from, { newMerchants: countAll }),
    // A merchant whose link was opened: counted once, on the day it first opened one.
    db
      .select({ day: sql<string>`to_char(opened at time zone 'UTC', 'YYYY-MM-DD')`, linksOpened: countAll })
      .from(
        db
          .select({ opened: sql<Date>`min(${onboardingLinks.firstOpenedAt})`.as("opened") })
          .from(onboardingLinks)
          .where(and(eq(onboardingLinks.isvAccountId, isvAccountId), isNotNull(onboardingLinks.firstOpenedAt)))
          .groupBy(onboardingLinks.merchantId)
          .as("first_opens"),
      )
      .where(sql`opened >= ${from.toISOString()}`)
      .groupBy(sql`1`),
    daily(db, merchants, merchants.isvAccountId, merchants.submittedAt, isvAccountId, from, { submitted: countAll }),
    daily(db, merchants, merchants.isvAccountId, merchants.approvedAt, isvAccountId, from, { approved: countAll }),
    db
      .select({
        seconds: sql<
          number | null
        >`percentile_cont(0.5) within group (order by extract(epoch from ${merchants.approvedAt} - ${merchants.createdAt}))`,
      })
      .from(merchants)
      .where(and(eq(merchants.isvAccountId, isvAccountId), gte(merchants.approvedAt, starts.month))),
    // Waiting on the merchant: underwriting asked for more after a submission.
    db.select().from(merchants).where(waitingOnMerchant(isvAccountId)).orderBy(asc(merchants.updatedAt)).limit(5),
    db.select({ count: count() }).from(merchants).where(waitingOnMerchant(isvAccountId)),
    db
      .select({
        id: disputes.id,
        merchantId: disputes.merchantId,
        amount: disputes.amount,
        dueBy: disputes.evidenceDueBy,
      })
      .from(disputes)
      .where(and(eq(disputes.isvAccountId, isvAccountId), eq(disputes.status, "needs_response")))
      .orderBy(asc(disputes.evidenceDueBy))
      .limit(5),
    db
      .select({ count: count() })
      .from(disputes)
      .where(and(eq(disputes.isvAccountId, isvAccountId), eq(disputes.status, "needs_response"))),
    db
      .select({ id: payouts.id, merchantId: payouts.merchantId, amount: payouts.amount, at: payouts.updatedAt })
      .from(payouts)
      .where(failedUnreplaced(isvAccountId))
      .orderBy(asc(payouts.updatedAt))
      .limit(5),
    db.select({ count: count() }).from(payouts).where(failedUnreplaced(isvAccountId)),
  ]);

  const days = new Map<string, OverviewDay>();
  for (let t = from.getTime(); t <= starts.today.getTime(); t += 86_400_000) {
    const day = dayOf(new Date(t));
    days.set(day, zero(day));
  }
  const add = (rows: { day: string }[], keys: (keyof OverviewDay)[]) => {
    for (const row of rows) {
      const day = days.get(row.day);
      if (!day) continue;
      for (const key of keys) (day[key] as number) += n((row as Record<string, unknown>)[key]);
    }
  };
  add(activity, ["volume", "payments", "refunds", "refundCount"]);
  add(opened, ["disputes"]);
  add(created, ["newMerchants"]);
  add(linksOpened, ["linksOpened"]);
  add(submitted, ["submitted"]);
  add(approved, ["approved"]);
  const all = [...days.values()];

  // The names of the merchants the attention list shows, in one read.
  const failedOfMerchants = failed.flatMap((p) => (p.merchantId ? [{ ...p, merchantId: p.merchantId }] : []));
  const ids = [...new Set([...due.map((d) => d.merchantId), ...failedOfMerchants.map((p) => p.merchantId)])];
  const names = new Map(
    ids.length
      ? (await db.select().from(merchants).where(inArray(merchants.id, ids))).map((m) => [
          m.id,
          businessName(m) || m.id,
        ])
      : [],
  );
  const medianSeconds = median[0]?.seconds;
  return {
    now,
    days: all.filter((d) => d.day >= dayOf(chartFrom)),
    today: periodOf(all, starts.today),
    week: periodOf(all, starts.week),
    month: periodOf(all, starts.month),
    medianApprovalSeconds:
      medianSeconds === null || medianSeconds === undefined ? null : Math.round(Number(medianSeconds)),
    attention: {
      waiting: {
        count: waitingCount[0]?.count ?? 0,
        items: waiting.map((m) => ({ id: m.id, name: businessName(m) || m.id, since: m.updatedAt })),
      },
      disputesDue: {
        count: dueCount[0]?.count ?? 0,
        items: due.map((d) => ({ ...d, merchantName: names.get(d.merchantId) ?? d.merchantId })),
      },
      failedPayouts: {
        count: failedCount[0]?.count ?? 0,
        items: failedOfMerchants.map((p) => ({ ...p, merchantName: names.get(p.merchantId) ?? p.merchantId })),
      },
    },
  };
}

export type DashboardOverview = Awaited<ReturnType<typeof dashboardOverview>>;

function waitingOnMerchant(isvAccountId: string) {
  return and(
    eq(merchants.isvAccountId, isvAccountId),
    eq(merchants.status, "IN_PROGRESS"),
    isNotNull(merchants.submittedAt),
    isNotNull(merchants.requirements),
  );
}

/** A merchant's failed payout that no payout replaces yet (its bank account must change first). */
function failedUnreplaced(isvAccountId: string) {
  return and(
    eq(payouts.isvAccountId, isvAccountId),
    ofMerchants,
    eq(payouts.status, "failed"),
    // An instant payout the rail refused gave its money back: the bank account is fine.
    ne(payouts.failureCode, "instant_refused"),
    sql`not exists (select 1 from payouts as replacement where replacement.replaces = ${payouts.id})`,
  );
}
