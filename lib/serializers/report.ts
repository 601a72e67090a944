import type { ReportRow } from "../db/schema";

/** A report as the API returns it (docs/reference.md section 18; times in milliseconds). */
export function serializeReport(row: ReportRow) {
  return {
    object: "report" as const,
    id: row.id,
    type: row.type,
    merchant_id: row.merchantId,
    interval: { start: row.intervalStart.getTime(), end: row.intervalEnd.getTime() },
    status: row.status,
    failure_message: row.failureMessage,
    row_count: row.rowCount,
    created_at: row.createdAt.getTime(),
    finished_at: row.finishedAt?.getTime() ?? null,
  };
}
export type ReportJson = ReturnType<typeof serializeReport>;
