import Link from "next/link";
import { getLocale, getTranslations } from "next-intl/server";

import { BarChart } from "@/components/charts/bar-chart";
import { PlatformFeeRulesForm } from "@/components/dashboard/platform-fees/platform-fee-rules-form";
import { DataTable } from "@/components/ui/data-table";
import { requireIsvUser } from "@/lib/dashboard/session";
import { platformFeeSettingsOf } from "@/lib/domain/accounts/isv-facts";
import { revenueOverview } from "@/lib/domain/residuals/revenue";
import { intlLocale } from "@/lib/i18n/locales";
import { formatCents, formatCentsCompact } from "@/lib/money";

export async function generateMetadata() {
  const t = await getTranslations("revenue");
  return { title: t("title") };
}

// /dashboard/revenue: what the ISV earns (docs/reference.md section 19): the month so far, the last
// 12 months as charts, the merchants with the largest margin this month, the residuals with their
// PDF and CSV, and the platform fee rules with a preview.
export default async function RevenuePage() {
  const { db, account } = await requireIsvUser("reports:read");
  const t = await getTranslations("revenue");
  const locale = intlLocale(await getLocale());
  const money = (cents: number) => formatCents(cents, locale);
  const compact = (cents: number) => formatCentsCompact(cents, locale);
  const overview = await revenueOverview(db, account.id);
  const { soFar, series, percent } = overview;
  const monthName = (period: string, style: "short" | "long") => {
    const [year, month] = period.split("-").map(Number) as [number, number];
    return new Intl.DateTimeFormat(locale, {
      month: style,
      ...(style === "long" ? { year: "numeric" } : {}),
      timeZone: "UTC",
    }).format(new Date(Date.UTC(year, month - 1, 1)));
  };
  const months = series.map((m) => monthName(m.period, "short"));
  const figures: [string, number, string][] = [
    [t("volume"), soFar.volume, "volume"],
    [t("merchantFees"), soFar.merchantFees, "merchant-fees"],
    [t("costs"), -soFar.costs, "costs"],
    [t("share", { percent }), soFar.share, "share"],
    [t("platformFees"), soFar.platformFees, "platform-fees"],
    ...(soFar.carriedIn !== 0 ? ([[t("carriedIn"), soFar.carriedIn, "carried-in"]] as [string, number, string][]) : []),
  ];
  const fees = platformFeeSettingsOf(account);
  return (
    <div className="space-y-8">
      <div>
        <h1 className="text-2xl font-semibold">{t("title")}</h1>
        <p className="mt-1 text-muted">{t("intro", { percent })}</p>
      </div>

      <section aria-labelledby="so-far-title" className="rounded-lg border border-line bg-card p-4">
        <h2 id="so-far-title" className="text-lg font-semibold">
          {t("soFar", { month: monthName(overview.period, "long") })}
        </h2>
        <dl className="mt-2 grid grid-cols-[1fr_auto] gap-y-1 tabular-nums" data-testid="so-far">
          {figures.map(([label, cents, id]) => (
            <div key={id} className="contents">
              <dt>{label}</dt>
              <dd className="text-right" data-testid={`so-far-${id}`}>
                {id === "volume" ? `${money(cents)} · ${t("payments", { count: soFar.count })}` : money(cents)}
              </dd>
            </div>
          ))}
          <dt className="border-t border-line pt-2 font-semibold">{t("residualSoFar")}</dt>
          <dd className="border-t border-line pt-2 text-right font-semibold" data-testid="so-far-amount">
            {money(soFar.amount)}
          </dd>
        </dl>
        <p className="mt-2 text-sm text-muted">{t("soFarNote")}</p>
      </section>

      <div className="grid gap-4 lg:grid-cols-2">
        <BarChart
          id="chart-volume"
          title={t("chartVolume")}
          description={t("chartVolumeDescription", {
            months: series.map((m, i) => `${months[i]} ${money(m.volume)}`).join(", "),
          })}
          categories={months}
          series={[{ name: t("volume"), color: "#2563eb", values: series.map((m) => m.volume) }]}
          format={money}
          formatAxis={compact}
          tableLabel={t("showTable")}
          categoryLabel={t("month")}
        />
        <BarChart
          id="chart-earnings"
          title={t("chartEarnings")}
          description={t("chartEarningsDescription", {
            months: series.map((m, i) => `${months[i]} ${money(m.amount)}`).join(", "),
          })}
          categories={months}
          series={[
            { name: t("merchantFees"), color: "#1d4ed8", values: series.map((m) => m.merchantFees) },
            { name: t("costs"), color: "#64748b", values: series.map((m) => m.costs) },
            { name: t("platformFees"), color: "#15803d", values: series.map((m) => m.platformFees) },
            { name: t("residual"), color: "#7c3aed", values: series.map((m) => m.amount) },
          ]}
          format={money}
          formatAxis={compact}
          tableLabel={t("showTable")}
          categoryLabel={t("month")}
        />
      </div>

      <DataTable
        id="top"
        title={t("topTitle")}
        testId="top-merchants"
        empty={overview.top.length === 0 ? t("noActivity") : null}
        columns={[
          { label: t("merchant") },
          { label: t("volume"), align: "right", wide: true },
          { label: t("margin"), align: "right" },
          { label: t("platformFees"), align: "right", wide: true },
          { label: t("yours"), align: "right", wide: true },
        ]}
      >
        {overview.top.map((l) => (
          <tr key={l.merchantId} className="border-b border-line">
            <td className="py-2 pr-3">
              <Link href={`/dashboard/merchants/${l.merchantId}`} className="underline">
                {l.name}
              </Link>
            </td>
            <td className="hidden py-2 pr-3 text-right tabular-nums sm:table-cell">{money(l.volume)}</td>
            <td className="py-2 pr-3 text-right tabular-nums">{money(l.margin)}</td>
            <td className="hidden py-2 pr-3 text-right tabular-nums sm:table-cell">{money(l.platformFees)}</td>
            <td className="hidden py-2 text-right tabular-nums sm:table-cell">{money(l.amount)}</td>
          </tr>
        ))}
      </DataTable>

      <DataTable
        id="residuals"
        title={t("residualsTitle")}
        testId="residuals"
        empty={overview.residuals.length === 0 ? t("noResiduals") : null}
        columns={[
          { label: t("month") },
          { label: t("residual"), align: "right" },
          { label: t("status"), wide: true },
          { label: t("files") },
        ]}
      >
        {overview.residuals.map((r) => (
          <tr key={r.id} className="border-b border-line" data-testid={`residual-${r.period}`}>
            <td className="py-2 pr-3 whitespace-nowrap">{monthName(r.period, "long")}</td>
            <td className="py-2 pr-3 text-right tabular-nums">{money(r.amount)}</td>
            <td className="hidden py-2 pr-3 sm:table-cell">{t(`statuses.${r.status}`)}</td>
            <td className="py-2 whitespace-nowrap">
              <a
                href={`/dashboard/residuals/${r.id}/download?format=pdf`}
                className="underline"
                download
                aria-label={t("pdf", { month: monthName(r.period, "long") })}
              >
                PDF
              </a>{" "}
              ·{" "}
              <a
                href={`/dashboard/residuals/${r.id}/download?format=csv`}
                className="underline"
                download
                aria-label={t("csv", { month: monthName(r.period, "long") })}
              >
                CSV
              </a>
            </td>
          </tr>
        ))}
      </DataTable>

      <PlatformFeeRulesForm rules={fees.rules} refund={fees.refund} />
    </div>
  );
}
