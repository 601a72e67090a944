import { desc, eq, inArray } from "drizzle-orm";

import { clock } from "../../clock";
import { merchants, type ResidualRow, residuals } from "../../db/schema";
import { type DbOrTx } from "../../db/types";
import { businessName } from "../../merchants/facts";
import { must } from "../../must";
import { getAccount } from "../accounts/get-account";
import { costProfileOf } from "../accounts/isv-facts";
import { periodOf } from "../statements/figures";
import { lineOf, residualOf } from "./figures";
import { merchantMonths } from "./generate-residual";

/** One month on the Revenue page: a residual made, or the month so far (`made: false`). */
export type RevenueMonth = {
  period: string;
  made: boolean;
  volume: number;
  merchantFees: number;
  costs: number;
  platformFees: number;
  amount: number;
};

/** The 12 months ending with `period` (YYYY-MM), oldest first. */
export function lastTwelve(period: string): string[] {
  const [year, month] = period.split("-").map(Number) as [number, number];
  return Array.from({ length: 12 }, (_, i) => periodOf(new Date(Date.UTC(year, month - 12 + i, 1))));
}

/**
 * The ISV's Revenue page (docs/reference.md section 19): the month so far (its figures as a residual
 * made now would have them, with what the month before carried in), the last 12 months (the
 * residuals made; the current month live; a month with neither shows nothing), the merchants with the
 * largest margin this month, and the residuals made. One aggregate query for the month so far; the
 * rest is read from the residuals kept.
 */
export async function revenueOverview(db: DbOrTx, isvAccountId: string, now = clock.now()) {
  const period = periodOf(now);
  const isv = await getAccount(db, isvAccountId);
  const percent = costProfileOf(isv).revenue_share_percent;
  const months = lastTwelve(period);
  // The ISV's latest residuals (two years): the chart's months, the loss carried in, the list.
  const [monthLines, all] = await Promise.all([
    merchantMonths(db, isvAccountId, period),
    db
      .select()
      .from(residuals)
      .where(eq(residuals.isvAccountId, isvAccountId))
      .orderBy(desc(residuals.period))
      .limit(24),
  ]);
  const earliest = must(months[0], "the first of the twelve months");
  const made = all.filter((r) => r.period >= earliest);
  const before = all.find((r) => r.period < period);
  const lines = monthLines.map((m) => lineOf(m, percent));
  const madeNow = made.find((r) => r.period === period);
  const soFar = residualOf(lines, before?.status === "carried" ? before.amount : 0);
  const byPeriod = new Map<string, ResidualRow>(made.map((r) => [r.period, r]));
  const series: RevenueMonth[] = months.map((p) => {
    const r = byPeriod.get(p);
    if (r)
      return {
        period: p,
        made: true,
        volume: r.volume,
        merchantFees: r.merchantFees,
        costs: r.costs,
        platformFees: r.platformFees,
        amount: r.amount,
      };
    if (p === period)
      return {
        period: p,
        made: false,
        volume: soFar.volume,
        merchantFees: soFar.merchantFees,
        costs: soFar.costs,
        platformFees: soFar.platformFees,
        amount: soFar.amount,
      };
    return { period: p, made: false, volume: 0, merchantFees: 0, costs: 0, platformFees: 0, amount: 0 };
  });
  const top = [...lines].sort((a, b) => b.margin - a.margin || a.merchantId.localeCompare(b.merchantId)).slice(0, 10);
  const names = new Map(
    top.length
      ? (
          await db
            .select()
            .from(merchants)
            .where(
              inArray(
                merchants.id,
                top.map((l) => l.merchantId),
              ),
            )
        ).map((m) => [m.id, businessName(m) || m.id])
      : [],
  );
  return {
    period,
    percent,
    soFar: { ...soFar, made: madeNow ?? null },
    series,
    top: top.map((l) => ({ ...l, name: names.get(l.merchantId) ?? l.merchantId })),
    residuals: all,
  };
}
