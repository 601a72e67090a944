import { requireIsvUser } from "@/lib/dashboard/session";
import { findReport } from "@/lib/domain/reports/create-report";
import { nullIfNotFound } from "@/lib/errors";

// GET /dashboard/reports/{id}/download: a report's CSV for the signed-in ISV user (the same bytes as
// GET /v1/reports/{id}/download; another ISV's report, or one not made yet, is 404).
export async function GET(_request: Request, { params }: { params: Promise<{ id: string }> }) {
  const { db, account } = await requireIsvUser("reports:read");
  const { id } = await params;
  const report = await findReport(db, { isvAccountId: account.id }, id).catch(nullIfNotFound);
  if (!report || report.status !== "succeeded" || report.csv === null) return new Response("Not found", { status: 404 });
  return new Response(report.csv, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="${report.type}-${report.id}.csv"`,
      "Cache-Control": "no-store",
    },
  });
}
