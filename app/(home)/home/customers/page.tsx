import Link from "next/link";
import { getFormatter, getLocale, getTranslations } from "next-intl/server";

import { CustomerForm } from "@/components/home/customer-form";
import { HomeShell } from "@/components/home/home-shell";
import { SubscriptionList } from "@/components/home/subscription-list";
import { primaryButtonClass } from "@/components/ui/button";
import { FilterField } from "@/components/ui/filter-field";
import { homeCreateCustomerAction } from "@/lib/actions/home-customers";
import { pageAtOrFirst } from "@/lib/db/cursor-page";
import { brandOf } from "@/lib/domain/accounts/isv-facts";
import { listCustomers } from "@/lib/domain/customers/customers";
import { customersById } from "@/lib/domain/customers/recurring-overview";
import { subscriptionsJson } from "@/lib/domain/subscriptions/json";
import { listSubscriptions, subscriptionSummary } from "@/lib/domain/subscriptions/subscriptions";
import { requireMerchant } from "@/lib/home/session";
import { intlLocale } from "@/lib/i18n/locales";
import { businessName } from "@/lib/merchants/facts";
import { formatCents } from "@/lib/money";

export async function generateMetadata() {
  const t = await getTranslations("merchantHome.customers");
  return { title: t("title") };
}

// /home/customers: the merchant's customers (docs/reference.md section 21), newest first, 25 a page,
// found by a part of the name or the address, and a new one; each opens its page (its saved cards, a
// charge again, an invoice that offers to save a card).

type Query = { q?: string; after?: string; before?: string };
const PAGE = 25;
export default async function Customers({ searchParams }: { searchParams: Promise<Query> }) {
  const { db, merchant, scope, isv } = await requireMerchant();
  const t = await getTranslations("merchantHome.customers");
  const format = await getFormatter();
  const params = await searchParams;
  const search = typeof params.q === "string" ? params.q.trim().slice(0, 100) : "";
  const { value: listed, paged } = await pageAtOrFirst(PAGE, params, (page) =>
    listCustomers(db, scope, { ...page, search }),
  );
  const { rows, hasMore } = listed;
  const [{ rows: subs }, summary] = await Promise.all([
    listSubscriptions(db, scope, { limit: 50 }),
    subscriptionSummary(db, scope),
  ]);
  const people = await customersById(
    db,
    scope.isvAccountId,
    subs.map((s) => s.customerId),
  );
  const names = new Map([...people.values()].map((c) => [c.id, c.name ?? c.email ?? t("unnamed")]));
  const qs = (extra: Record<string, string>) => new URLSearchParams({ ...(search ? { q: search } : {}), ...extra });
  const locale = intlLocale(await getLocale());
  const money = (cents: number) => formatCents(cents, locale);
  return (
    <HomeShell branding={brandOf(isv)} business={businessName(merchant) || merchant.id} section="customers">
      <h1 className="text-2xl font-semibold">{t("title")}</h1>
      <p className="mt-2">{t("intro")}</p>
      <div className="mt-4">
        <CustomerForm action={homeCreateCustomerAction} />
      </div>
      <section aria-labelledby="customers-list" className="mt-6">
        <h2 id="customers-list" className="text-lg font-semibold">
          {t("listTitle")}
        </h2>
        <form role="search" aria-label={t("searchLabel")} className="mt-2 flex flex-wrap items-end gap-2">
          <div className="grow">
            <FilterField
              id="q"
              label={t("searchLabel")}
              type="search"
              defaultValue={search}
              maxLength={100}
              placeholder={t("searchHint")}
            />
          </div>
          <button type="submit" className={primaryButtonClass("md")}>
            {t("search")}
          </button>
        </form>
        {rows.length === 0 ? (
          <p className="mt-2">{search ? t("noMatch", { search }) : t("none")}</p>
        ) : (
          <ul className="mt-2 divide-y divide-line rounded-lg border border-line bg-card" data-testid="customers">
            {rows.map((c) => (
              <li key={c.id} className="flex flex-wrap items-baseline justify-between gap-2 p-3">
                <Link href={`/home/customers/${c.id}`} className="font-medium break-all underline">
                  {c.name ?? c.email ?? t("unnamed")}
                </Link>
                <span className="text-sm break-all text-muted">
                  {c.email ? `${c.email} · ` : ""}
                  {t("since", { date: format.dateTime(c.createdAt, { dateStyle: "medium" }) })}
                </span>
              </li>
            ))}
          </ul>
        )}
        <nav aria-label={t("pages")} className="mt-2 flex gap-4">
          {paged && rows[0] ? (
            <Link className="underline" href={`/home/customers?${qs({ before: rows[0].id })}`}>
              {t("newer")}
            </Link>
          ) : null}
          {(hasMore || (paged && params.before)) && rows.at(-1) ? (
            <Link className="underline" href={`/home/customers?${qs({ after: rows.at(-1)?.id ?? "" })}`}>
              {t("older")}
            </Link>
          ) : null}
        </nav>
      </section>
      {summary.total > 0 ? (
        <section aria-labelledby="subs-title" className="mt-6 rounded-lg border border-line bg-card p-4">
          <h2 id="subs-title" className="text-lg font-semibold">
            {t("subsTitle")}
          </h2>
          <p className="mt-1">{t("summary", summary)}</p>
          <p className="text-sm text-muted">{t("recoveredTotal", { amount: money(summary.recovered) })}</p>
          <SubscriptionList rows={await subscriptionsJson(db, subs)} names={names} />
        </section>
      ) : null}
    </HomeShell>
  );
}
