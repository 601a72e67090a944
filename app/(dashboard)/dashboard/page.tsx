import Link from "next/link";
import { getLocale, getTranslations } from "next-intl/server";

import { BarChart } from "@/components/charts/bar-chart";
import { FunnelChart } from "@/components/charts/funnel-chart";
import { requireIsvUser } from "@/lib/dashboard/session";
import { dashboardOverview, type OverviewPeriod } from "@/lib/domain/dashboard/overview";
import { intlLocale } from "@/lib/i18n/locales";
import { formatCents, formatCentsCompact } from "@/lib/money";

export async function generateMetadata() {
  return { title: (await getTranslations("overview"))("title") };
}

const periods = ["today", "week", "month"] as const;
type PeriodName = (typeof periods)[number];

// /dashboard: the ISV's day at a glance (docs/reference.md section 23): today, this week or this
// month (payments, refunds, disputes, new and approved merchants, the onboarding funnel), the last
// 30 days as a chart, and what needs the ISV, each linking to where it is handled.
export default async function OverviewPage({ searchParams }: { searchParams: Promise<{ period?: string }> }) {
  const { db, account } = await requireIsvUser("account:read");
  const t = await getTranslations("overview");
  const locale = intlLocale(await getLocale());
  const asked = (await searchParams).period;
  const period: PeriodName = (periods as readonly string[]).includes(asked ?? "") ? (asked as PeriodName) : "month";
  const overview = await dashboardOverview(db, account.id);
  const figures: OverviewPeriod = overview[period];
  const money = (cents: number) => formatCents(cents, locale);
  const compact = (cents: number) => formatCentsCompact(cents, locale);
  const dayName = (day: string, style: "short" | "long") =>
    new Intl.DateTimeFormat(locale, {
      day: "numeric",
      month: "short",
      ...(style === "long" ? { weekday: "long" } : {}),
      timeZone: "UTC",
    }).format(new Date(`${day}T00:00:00Z`));
  const duration = (seconds: number) =>
    seconds < 60
      ? t("duration.seconds", { count: seconds })
      : seconds < 3_600
        ? t("duration.minutes", { count: Math.round(seconds / 60) })
        : seconds < 86_400
          ? t("duration.hours", { count: Math.round(seconds / 3_600) })
          : t("duration.days", { count: Math.round(seconds / 86_400) });
  const cards: { id: string; label: string; value: string; note?: string }[] = [
    {
      id: "volume",
      label: t("volume"),
      value: money(figures.volume),
      note: t("payments", { count: figures.payments }),
    },
    {
      id: "refunds",
      label: t("refunds"),
      value: money(figures.refunds),
      note: t("refundCount", { count: figures.refundCount }),
    },
    { id: "disputes", label: t("disputes"), value: String(figures.disputes) },
    { id: "new-merchants", label: t("newMerchants"), value: String(figures.newMerchants) },
    { id: "approved", label: t("approved"), value: String(figures.approved) },
  ];
  const { waiting, disputesDue, failedPayouts } = overview.attention;
  const nothing = waiting.count + disputesDue.count + failedPayouts.count === 0;
  const days = overview.days;
  const labels = days.map((d) => dayName(d.day, "short"));
  return (
    <div className="space-y-8">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <h1 className="text-2xl font-semibold">{t("title")}</h1>
        <nav aria-label={t("periodLabel")} className="flex gap-1 rounded-lg border border-line bg-card p-1">
          {periods.map((p) => (
            <Link
              key={p}
              href={`/dashboard?period=${p}`}
              aria-current={p === period ? "page" : undefined}
              className={`rounded-md px-3 py-1.5 text-sm ${p === period ? "bg-primary font-semibold text-on-primary" : ""}`}
            >
              {t(`periods.${p}`)}
            </Link>
          ))}
        </nav>
      </div>

      <section aria-labelledby="figures-title">
        <h2 id="figures-title" className="sr-only">
          {t("figuresTitle", { period })}
        </h2>
        <p className="mb-2 text-sm text-muted">{t("since", { day: dayName(figures.from, "long") })}</p>
        <dl className="grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-5" data-testid="figures">
          {cards.map((c) => (
            <div key={c.id} className="rounded-lg border border-line bg-card p-3" data-testid={`figure-${c.id}`}>
              <dt className="text-sm text-muted">{c.label}</dt>
              <dd className="mt-1 text-xl font-semibold tabular-nums">{c.value}</dd>
              {c.note ? <dd className="text-sm text-muted">{c.note}</dd> : null}
            </div>
          ))}
        </dl>
      </section>

      <section aria-labelledby="attention-title" className="rounded-lg border border-line bg-card p-4">
        <h2 id="attention-title" className="text-lg font-semibold">
          {t("attentionTitle")}
        </h2>
        {nothing ? (
          <p className="mt-2" data-testid="attention-none">
            {t("attentionNone")}
          </p>
        ) : (
          <div className="mt-2 grid gap-4 md:grid-cols-3" data-testid="attention">
            <AttentionList
              title={t("waitingTitle", { count: waiting.count })}
              testId="attention-waiting"
              items={waiting.items.map((m) => ({
                key: m.id,
                href: `/dashboard/merchants/${m.id}`,
                label: m.name,
                note: t("waitingSince", { day: dayName(m.since.toISOString().slice(0, 10), "short") }),
              }))}
            />
            <AttentionList
              title={t("disputesTitle", { count: disputesDue.count })}
              testId="attention-disputes"
              items={disputesDue.items.map((d) => ({
                key: d.id,
                href: `/dashboard/merchants/${d.merchantId}#disputes`,
                label: `${d.merchantName} · ${money(d.amount)}`,
                note: t("dueBy", { day: dayName(d.dueBy.toISOString().slice(0, 10), "short") }),
              }))}
            />
            <AttentionList
              title={t("payoutsTitle", { count: failedPayouts.count })}
              testId="attention-payouts"
              items={failedPayouts.items.map((p) => ({
                key: p.id,
                href: `/dashboard/merchants/${p.merchantId}#payouts`,
                label: `${p.merchantName} · ${money(p.amount)}`,
                note: t("payoutFailedNote"),
              }))}
            />
          </div>
        )}
      </section>

      <div className="grid gap-4 lg:grid-cols-2">
        <BarChart
          id="chart-daily-volume"
          title={t("chartVolume")}
          description={t("chartVolumeDescription", {
            days: days
              .filter((d) => d.volume > 0)
              .map((d, i) => `${labels[days.indexOf(d)] ?? i} ${money(d.volume)}`)
              .join(", "),
          })}
          categories={labels}
          series={[{ name: t("volume"), color: "#2563eb", values: days.map((d) => d.volume) }]}
          format={money}
          formatAxis={compact}
          tableLabel={t("showTable")}
          categoryLabel={t("day")}
          maxLabels={6}
        />
        <FunnelChart
          id="chart-funnel"
          title={t("funnelTitle", { period })}
          steps={[
            { label: t("funnel.opened"), value: figures.linksOpened },
            { label: t("funnel.submitted"), value: figures.submitted },
            { label: t("funnel.approved"), value: figures.approved },
          ]}
          percentOf={(value, first) =>
            first > 0 ? new Intl.NumberFormat(locale, { style: "percent" }).format(value / first) : "—"
          }
          note={
            overview.medianApprovalSeconds === null
              ? t("medianNone")
              : t("median", { duration: duration(overview.medianApprovalSeconds) })
          }
        />
      </div>
    </div>
  );
}

function AttentionList({
  title,
  testId,
  items,
}: {
  title: string;
  testId: string;
  items: { key: string; href: string; label: string; note: string }[];
}) {
  if (items.length === 0) return null;
  return (
    <div data-testid={testId}>
      <h3 className="font-semibold">{title}</h3>
      <ul className="mt-1 space-y-1">
        {items.map((item) => (
          <li key={item.key}>
            <Link href={item.href} className="underline">
              {item.label}
            </Link>
            <span className="block text-sm text-muted">{item.note}</span>
          </li>
        ))}
      </ul>
    </div>
  );
}
