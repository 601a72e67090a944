import { getFormatter, getTranslations } from "next-intl/server";

import { RefreshWhilePending, ReportForm } from "@/components/dashboard/report-form";
import { DataTable } from "@/components/ui/data-table";
import { requireIsvUser } from "@/lib/dashboard/session";
import { listMerchants } from "@/lib/domain/merchants/list-merchants";
import { listRecentReports } from "@/lib/domain/reports/list-reports";
import { businessName } from "@/lib/merchants/facts";

export async function generateMetadata() {
  const t = await getTranslations("reports");
  return { title: t("title") };
}

// /dashboard/reports: ask for a report of the ledger (docs/reference.md section 18), see it made,
// download its CSV.
export default async function ReportsPage() {
  const { db, account } = await requireIsvUser("reports:read");
  const t = await getTranslations("reports");
  const format = await getFormatter();
  const [recent, merchantPage] = await Promise.all([
    listRecentReports(db, account.id),
    listMerchants(db, account.id, { limit: 100 }),
  ]);
  const names = new Map(merchantPage.rows.map((m) => [m.id, businessName(m) || m.id]));
  const utcDay = (d: Date) => format.dateTime(d, { dateStyle: "medium", timeZone: "UTC" });
  return (
    <>
      <h1 className="text-2xl font-semibold">{t("title")}</h1>
      <p className="mt-1 text-muted">{t("intro")}</p>
      <ReportForm merchants={merchantPage.rows.map((m) => ({ id: m.id, name: businessName(m) || m.id }))} />
      <RefreshWhilePending pending={recent.some((r) => r.status === "pending")} />
      <div className="mt-6">
        <DataTable
          id="reports"
          title={t("recent")}
          testId="reports"
          empty={recent.length === 0 ? t("none") : null}
          columns={[
            { label: t("type") },
            { label: t("merchant"), wide: true },
            { label: t("period") },
            { label: t("status") },
            { label: t("rows"), align: "right", wide: true },
            { label: t("file") },
          ]}
        >
          {recent.map((r) => (
            <tr key={r.id} className="border-b border-line" data-testid={`report-${r.id}`}>
              <td className="py-2 pr-3">{t(`types.${r.type}`)}</td>
              <td className="hidden py-2 pr-3 sm:table-cell">{r.merchantId ? (names.get(r.merchantId) ?? r.merchantId) : t("allMerchants")}</td>
              <td className="py-2 pr-3">
                {t("periodRange", {
                  from: utcDay(r.intervalStart),
                  to: utcDay(new Date(r.intervalEnd.getTime() - 1)),
                })}
              </td>
              <td className="py-2 pr-3" data-testid="report-status">
                {t(`statuses.${r.status}`)}
              </td>
              <td className="hidden py-2 pr-3 text-right tabular-nums sm:table-cell">{r.rowCount ?? "—"}</td>
              <td className="py-2">
                {r.status === "succeeded" ? (
                  <a href={`/dashboard/reports/${r.id}/download`} className="underline" download>
                    {t("download")}
                  </a>
                ) : (
                  "—"
                )}
              </td>
            </tr>
          ))}
        </DataTable>
      </div>
    </>
  );
}
