import { desc, eq } from "drizzle-orm";

import { reports } from "../../db/schema";
import { type DbOrTx } from "../../db/types";

/** An ISV's latest reports, newest first (the dashboard's Reports page). */
export function listRecentReports(db: DbOrTx, isvAccountId: string, limit = 20) {
  return db
    .select({
      id: reports.id,
      type: reports.type,
      merchantId: reports.merchantId,
      intervalStart: reports.intervalStart,
      intervalEnd: reports.intervalEnd,
      status: reports.status,
      rowCount: reports.rowCount,
      createdAt: reports.createdAt,
    })
    .from(reports)
    .where(eq(reports.isvAccountId, isvAccountId))
    .orderBy(desc(reports.seq))
    .limit(limit);
}
