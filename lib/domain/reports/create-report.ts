import { and, eq } from "drizzle-orm";

import { one } from "../../db/one";
import { reports } from "../../db/schema";
import { type Db, type DbOrTx } from "../../db/types";
import { notFound } from "../../errors";
import { AppError } from "../../errors";
import { createId } from "../../ids";
import { enqueueJob } from "../../jobs/job-types";
import type { ReportType } from "../../schemas/ledger-values";
import { recordAudit } from "../audit/record-audit";
import { findScopedMerchant, type Scope } from "../scope";

/**
 * POST /v1/reports: a report of the caller's merchants (one of them, or, for an ISV, all), pending
 * until the `report_run` job makes its CSV (queued in the same transaction). A merchant's own key
 * reports on itself only.
 */
export async function createReport(
  db: Db,
  scope: Scope,
  input: { type: ReportType; merchant_id?: string; interval: { start: number; end: number } },
) {
  // The residual's lines are the ISV's economics (its costs, margin and share): never a merchant's.
  if (input.type === "residual_lines" && scope.merchantId)
    throw new AppError(
      "permission_denied",
      "The residual_lines report is the ISV's: a merchant's own key reports balance_transactions and payout_reconciliation",
    );
  const merchantId = input.merchant_id || scope.merchantId ? (await findScopedMerchant(db, scope, input.merchant_id)).id : null;
  return db.transaction(async (tx) => {
    const row = one(
      await tx
        .insert(reports)
        .values({
          id: createId("rep"),
          isvAccountId: scope.isvAccountId,
          merchantId,
          type: input.type,
          intervalStart: new Date(input.interval.start),
          intervalEnd: new Date(input.interval.end),
          status: "pending",
        })
        .returning(),
    );
    await enqueueJob(tx, "report_run", { report_id: row.id }, { key: `report_run_${row.id}` });
    await recordAudit(tx, { accountId: scope.isvAccountId, action: "report.created", resourceId: row.id });
    return row;
  });
}

/** One report within the caller's scope (an ISV's, or a merchant's own): another's is a 404. */
export async function findReport(db: DbOrTx, scope: Scope, id: string) {
  const [row] = await db
    .select()
    .from(reports)
    .where(
      and(
        eq(reports.id, id),
        eq(reports.isvAccountId, scope.isvAccountId),
        scope.merchantId ? eq(reports.merchantId, scope.merchantId) : undefined,
      ),
    );
  if (!row) throw notFound("report", id);
  return row;
}

