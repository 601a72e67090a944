import Link from "next/link";
import { getLocale, getTranslations } from "next-intl/server";

import { BarChart } from "@/components/charts/bar-chart";
import { CustomersTable, LinksTable, SubscriptionsTable } from "@/components/dashboard/recurring-tables";
import { primaryButtonClass } from "@/components/ui/button";
import { FilterSelect } from "@/components/ui/filter-field";
import { hostedBaseUrl } from "@/lib/branding/hosts";
import { clock } from "@/lib/clock";
import { requireIsvUser } from "@/lib/dashboard/session";
import { pageAtOrFirst } from "@/lib/db/cursor-page";
import { listCustomers } from "@/lib/domain/customers/customers";
import { customersById, merchantsById, recurringMerchants } from "@/lib/domain/customers/recurring-overview";
import { listPaymentLinks } from "@/lib/domain/payment-links/payment-links";
import { subscriptionsJson } from "@/lib/domain/subscriptions/json";
import { listSubscriptions, subscriptionSummary } from "@/lib/domain/subscriptions/subscriptions";
import { intlLocale } from "@/lib/i18n/locales";
import { subscriptionCollections } from "@/lib/ledger/recovered";
import { businessName } from "@/lib/merchants/facts";
import { formatCents, formatCentsCompact } from "@/lib/money";
import type { ListQuery } from "@/lib/schemas/list";
import { type SubscriptionStatus, subscriptionStatuses } from "@/lib/schemas/payment-values";
import { serializeCustomer } from "@/lib/serializers/customer";
import { serializePaymentLink } from "@/lib/serializers/payment-link";

export async function generateMetadata() {
  return { title: (await getTranslations("recurring"))("title") };
}

const views = ["subscriptions", "customers", "links"] as const;
type View = (typeof views)[number];
type Query = { view?: string; merchant?: string; status?: string; after?: string; before?: string };
const MONTHS = 6;

// /dashboard/customers: what the ISV's merchants bill again and again (docs/reference.md section
// 21): the subscriptions' figures (running, what they bill a month, retrying, on hold, and what the
// retries recovered, from the ledger), six months of subscription payments as a chart, and the
// subscriptions, customers and payment links, for every merchant or one, 25 a page.
export default async function CustomersPage({ searchParams }: { searchParams: Promise<Query> }) {
  const { db, account } = await requireIsvUser("payments:read");
  const t = await getTranslations("recurring");
  const locale = intlLocale(await getLocale());
  const money = (cents: number) => formatCents(cents, locale);
  const params = await searchParams;
  const view: View = (views as readonly string[]).includes(params.view ?? "") ? (params.view as View) : "subscriptions";
  const billing = await recurringMerchants(db, account.id);
  const merchantId = billing.some((m) => m.id === params.merchant) ? params.merchant : undefined;
  const status = (subscriptionStatuses as readonly string[]).includes(params.status ?? "")
    ? (params.status as SubscriptionStatus)
    : undefined;
  const scope = { isvAccountId: account.id, ...(merchantId ? { merchantId } : {}) };
  const now = clock.now();
  const since = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - (MONTHS - 1), 1));
  const months = Array.from({ length: MONTHS }, (_, i) => {
    const d = new Date(Date.UTC(since.getUTCFullYear(), since.getUTCMonth() + i, 1));
    return {
      key: d.toISOString().slice(0, 7),
      name: new Intl.DateTimeFormat(locale, { month: "short", timeZone: "UTC" }).format(d),
    };
  });
  const paged = async <T,>(list: (p: ListQuery) => Promise<T>) => (await pageAtOrFirst(25, params, list)).value;
  const [summary, collected, subs, people, links] = await Promise.all([
    subscriptionSummary(db, scope),
    subscriptionCollections(db, since, account.id, merchantId),
    view === "subscriptions" ? paged((p) => listSubscriptions(db, scope, { ...p, status })) : null,
    view === "customers" ? paged((p) => listCustomers(db, scope, p)) : null,
    view === "links" ? paged((p) => listPaymentLinks(db, scope, p)) : null,
  ]);
  const listed = subs ?? people ?? links;
  const rows = listed?.rows ?? [];
  const last = rows.at(-1);
  const [merchantsOf, customersOf, subsJson] = await Promise.all([
    merchantsById(
      db,
      account.id,
      rows.map((r) => r.merchantId),
    ),
    customersById(
      db,
      account.id,
      (subs?.rows ?? []).map((s) => s.customerId),
    ),
    subs ? subscriptionsJson(db, subs.rows) : [],
  ]);
  const merchantNames = Object.fromEntries([...merchantsOf.values()].map((m) => [m.id, businessName(m) || m.id]));
  const qs = (extra: Record<string, string | undefined>) => {
    const all = { view, merchant: merchantId, status: view === "subscriptions" ? status : undefined, ...extra };
    return new URLSearchParams(Object.entries(all).filter((e): e is [string, string] => !!e[1])).toString();
  };
  const tiles: [string, string, string][] = [
    ["active", t("tiles.active"), String(summary.active)],
    ["monthly", t("tiles.monthly"), money(summary.monthly)],
    ["retrying", t("tiles.retrying"), String(summary.retrying)],
    ["unpaid", t("tiles.unpaid"), String(summary.unpaid)],
    ["recovered", t("tiles.recovered"), money(summary.recovered)],
  ];
  const series = months.map((m) => collected.get(m.key) ?? { firstTry: 0, recovered: 0 });
  return (
    <div className="space-y-6">
      <div>
        <h1 className="text-2xl font-semibold">{t("title")}</h1>
        <p className="mt-1 text-muted">{t("intro")}</p>
      </div>
      <form className="flex flex-wrap items-end gap-3" role="search" aria-label={t("filterLabel")}>
        <input type="hidden" name="view" value={view} />
        <FilterSelect
          id="merchant"
          label={t("merchant")}
          any={t("allMerchants")}
          defaultValue={merchantId}
          options={billing.map((m) => ({ value: m.id, label: businessName(m) || m.id }))}
        />
        {view === "subscriptions" ? (
          <FilterSelect
            id="status"
            label={t("status")}
            any={t("allStatuses")}
            defaultValue={status}
            options={subscriptionStatuses.map((s) => ({ value: s, label: t(`statuses.${s}`) }))}
          />
        ) : null}
        <button type="submit" className={primaryButtonClass("md")}>
          {t("show")}
        </button>
      </form>
      <div className="grid items-start gap-4 lg:grid-cols-2">
        <section aria-labelledby="figures-title">
          <h2 id="figures-title" className="sr-only">
            {t("figuresTitle")}
          </h2>
          <dl className="grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-2" data-testid="recurring-figures">
            {tiles.map(([id, label, value]) => (
              <div
                key={id}
                className={`rounded-lg border border-line bg-card p-3 ${id === "recovered" ? "col-span-2 sm:col-span-1 lg:col-span-2" : ""}`}
              >
                <dt className="text-sm text-muted">{label}</dt>
                <dd className="mt-1 text-xl font-semibold tabular-nums" data-testid={`figure-${id}`}>
                  {value}
                </dd>
              </div>
            ))}
          </dl>
          <p className="mt-2 text-sm text-muted">{t("figuresNote")}</p>
        </section>
        {series.some((m) => m.firstTry !== 0 || m.recovered !== 0) ? (
          <BarChart
            id="chart-collected"
            title={t("chartTitle")}
            description={t("chartDescription", {
              months: months
                .map((m, i) => `${m.name} ${money(series[i]?.firstTry ?? 0)} + ${money(series[i]?.recovered ?? 0)}`)
                .join(", "),
            })}
            categories={months.map((m) => m.name)}
            series={[
              { name: t("firstTry"), color: "#2563eb", values: series.map((s) => s.firstTry) },
              { name: t("recoveredSeries"), color: "#15803d", values: series.map((s) => s.recovered) },
            ]}
            format={money}
            formatAxis={(cents) => formatCentsCompact(cents, locale)}
            tableLabel={t("showTable")}
            categoryLabel={t("month")}
          />
        ) : (
          <section aria-labelledby="chart-collected-title" className="rounded-lg border border-line bg-card p-3">
            <h2 id="chart-collected-title" className="font-semibold">
              {t("chartTitle")}
            </h2>
            <p className="mt-1 text-muted">{t("chartEmpty")}</p>
          </section>
        )}
      </div>
      <nav aria-label={t("viewsLabel")} className="border-b border-line">
        <ul className="flex flex-wrap gap-x-1">
          {views.map((v) => (
            <li key={v}>
              <Link
                href={`/dashboard/customers?${qs({ view: v, status: undefined })}`}
                aria-current={v === view ? "page" : undefined}
                className={`inline-block border-b-2 px-3 py-2 text-sm ${
                  v === view ? "border-primary font-semibold" : "border-transparent text-muted hover:text-ink"
                }`}
              >
                {t(`views.${v}`)}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
      {subs ? (
        <SubscriptionsTable rows={subsJson} merchants={merchantNames} customers={Object.fromEntries(customersOf)} />
      ) : null}
      {people ? <CustomersTable rows={people.rows.map(serializeCustomer)} merchants={merchantNames} /> : null}
      {links ? (
        <LinksTable
          rows={links.rows.map((l) => serializePaymentLink(l, hostedBaseUrl(account)))}
          merchants={merchantNames}
          now={now.getTime()}
        />
      ) : null}
      <nav aria-label={t("pagination")} className="flex gap-4">
        {(params.after || params.before) && rows[0] ? (
          <Link className="underline" href={`/dashboard/customers?${qs({ before: rows[0].id })}`}>
            {t("previous")}
          </Link>
        ) : null}
        {(listed?.hasMore || params.before) && last ? (
          <Link className="underline" href={`/dashboard/customers?${qs({ after: last.id })}`}>
            {t("next")}
          </Link>
        ) : null}
      </nav>
    </div>
  );
}
