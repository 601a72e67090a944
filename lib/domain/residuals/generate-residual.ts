import { and, desc, eq, gt, lt } from "drizzle-orm";

import { clock } from "../../clock";
import { one } from "../../db/one";
import { accounts, residualLines, type ResidualRow, residuals } from "../../db/schema";
import { type Db, type DbOrTx } from "../../db/types";
import { AppError, invalid } from "../../errors";
import { createId } from "../../ids";
import { merchantMonthSums } from "../../ledger/merchant-months";
import { postResidual } from "../../ledger/payout-movements";
import { serializeResidual } from "../../serializers/residual";
import { getAccount } from "../accounts/get-account";
import { costProfileOf } from "../accounts/isv-facts";
import { recordEvent } from "../events/record-event";
import { periodOf, periodRange } from "../statements/figures";
import { payWaitingResiduals } from "./account-payouts";
import { lineOf, type MerchantMonth, residualOf } from "./figures";

/** Each merchant's sums for the month (docs/reference.md section 19), from the ledger. */
export function merchantMonths(db: DbOrTx, isvAccountId: string, period: string): Promise<MerchantMonth[]> {
  const { start, end } = periodRange(period);
  return merchantMonthSums(db, isvAccountId, start, end);
}

/**
 * An ISV's residual for a month (the monthly job, and the sandbox's helper): its lines (one per
 * merchant with activity, the largest amount first), the ISV's share of the margin posted from the
 * platform's revenue to the ISV's (`residual`), and `residual.created`, in one transaction. Made once
 * per ISV and month (answered again after), for a month that is over (the current one: 400); made in
 * order (a month before the latest one made: 409), so a negative amount is carried into exactly one
 * later residual.
 */
export async function generateResidual(
  db: Db,
  isvAccountId: string,
  period: string,
  now = clock.now(),
): Promise<{ row: ResidualRow; created: boolean }> {
  periodRange(period);
  // A month still running has figures still to come: its residual would leave them out for good
  // (and pay what it has at once). Made once the month is over, by the job on the 1st or the helper.
  if (period >= periodOf(now))
    throw invalid("period", `${period} has not ended: a residual is made for a month that is over`);
  const existing = await findByPeriod(db, isvAccountId, period);
  if (existing) return { row: existing, created: false };
  const isv = await getAccount(db, isvAccountId);
  const percent = costProfileOf(isv).revenue_share_percent;
  const lines = (await merchantMonths(db, isvAccountId, period))
    .map((month) => lineOf(month, percent))
    .sort((a, b) => b.amount - a.amount || a.merchantId.localeCompare(b.merchantId));

  const made = await db.transaction(async (tx) => {
    // The ISV's row first (as its payouts take it): two months made at once are made one after the
    // other, so the second reads the first's carried amount and a negative is carried once.
    await tx.select({ id: accounts.id }).from(accounts).where(eq(accounts.id, isvAccountId)).for("update");
    const [later] = await tx
      .select({ period: residuals.period })
      .from(residuals)
      .where(and(eq(residuals.isvAccountId, isvAccountId), gt(residuals.period, period)))
      .limit(1);
    if (later)
      throw new AppError(
        "invalid_state",
        `Residuals are made month after month: ${later.period}'s exists, so ${period}'s cannot be made now`,
      );
    const [before] = await tx
      .select()
      .from(residuals)
      .where(and(eq(residuals.isvAccountId, isvAccountId), lt(residuals.period, period)))
      .orderBy(desc(residuals.period))
      .limit(1);
    const figures = residualOf(lines, before?.status === "carried" ? before.amount : 0);
    const [row] = await tx
      .insert(residuals)
      .values({
        id: createId("res"),
        isvAccountId,
        period,
        ...figures,
        revenueSharePercent: percent,
        lineCount: lines.length,
        createdAt: now,
      })
      .onConflictDoNothing()
      .returning();
    // Another run made it first: its residual stands.
    if (!row) return null;
    for (let i = 0; i < lines.length; i += 500)
      await tx.insert(residualLines).values(
        lines.slice(i, i + 500).map((line, j) => ({
          residualId: row.id,
          position: i + j,
          merchantId: line.merchantId,
          volume: line.volume,
          count: line.count,
          merchantFees: line.merchantFees,
          costs: line.costs,
          margin: line.margin,
          share: line.share,
          platformFees: line.platformFees,
          amount: line.amount,
        })),
      );
    await postResidual(tx, row);
    await recordEvent(tx, {
      accountId: isvAccountId,
      type: "residual.created",
      objectId: row.id,
      data: serializeResidual(row),
    });
    // A positive amount goes to the ISV's bank account now, if it is verified (else when it is).
    if (row.status === "pending") {
      await payWaitingResiduals(tx, isvAccountId);
      return one(await tx.select().from(residuals).where(eq(residuals.id, row.id)));
    }
    return row;
  });
  if (made) return { row: made, created: true };
  return { row: one(await findByPeriodRows(db, isvAccountId, period)), created: false };
}

const findByPeriodRows = (db: DbOrTx, isvAccountId: string, period: string) =>
  db
    .select()
    .from(residuals)
    .where(and(eq(residuals.isvAccountId, isvAccountId), eq(residuals.period, period)));
async function findByPeriod(db: DbOrTx, isvAccountId: string, period: string) {
  const [row] = await findByPeriodRows(db, isvAccountId, period);
  return row ?? null;
}
