import Link from "next/link";
import { getTranslations } from "next-intl/server";

import { HomeShell } from "@/components/home/home-shell";
import { LivePayments } from "@/components/home/live-payments";
import { HomePaymentsTable } from "@/components/home/payments-table";
import { brandOf } from "@/lib/domain/accounts/isv-facts";
import { listCharges } from "@/lib/domain/charges/list-charges";
import { recentPaymentsSignature } from "@/lib/domain/home/overview";
import { type HomePaymentsQuery, readPaymentFilters } from "@/lib/domain/home/payment-filters";
import { businessName } from "@/lib/domain/merchants/merchant-facts";
import { requireMerchant } from "@/lib/home/session";
import { chargeStatuses, paymentTypes } from "@/lib/schemas/payment-values";

export async function generateMetadata() {
  const t = await getTranslations("merchantHome");
  return { title: t("payments") };
}

const input = "mt-1 block w-full rounded-lg border border-line bg-card px-3 py-2.5";

// /home/payments: the merchant's payments, newest first, 25 a page, filtered by status, how they
// were paid, dates, amount and the last 4 digits (a plain GET form: the filters are in the URL,
// shareable, and work without JavaScript).
export default async function HomePayments({ searchParams }: { searchParams: Promise<HomePaymentsQuery> }) {
  const { db, merchant, scope, isv } = await requireMerchant({ components: ["payments"] });
  const raw = await searchParams;
  const { query, problems, filtered } = readPaymentFilters(raw);
  const page = await listCharges(db, scope, query);
  const t = await getTranslations("merchantHome");
  const dashboard = await getTranslations("dashboard");
  // The filters without the cursor, for the pages' links.
  const kept = new URLSearchParams(
    Object.entries(raw).filter(([k, v]) => k !== "after" && k !== "before" && typeof v === "string" && v) as [
      string,
      string,
    ][],
  );
  const pageLink = (key: "after" | "before", id: string) => {
    const params = new URLSearchParams(kept);
    params.set(key, id);
    return `/home/payments?${params}`;
  };
  const backwards = Boolean(query.ending_before);
  const live = !filtered && !query.starting_after && !query.ending_before;
  const hasNewer = backwards ? page.hasMore : Boolean(query.starting_after);
  const hasOlder = backwards ? true : page.hasMore;
  const problem = (field: keyof typeof problems) =>
    problems[field] ? (
      <p id={`${field}-problem`} className="mt-1 text-sm text-danger">
        {t(`problems.${problems[field]}`)}
      </p>
    ) : null;
  const described = (field: keyof typeof problems) =>
    problems[field] ? { "aria-invalid": true, "aria-describedby": `${field}-problem` } : {};
  return (
    <HomeShell branding={brandOf(isv)} business={businessName(merchant) || merchant.id} section="payments">
      {/* The first page, unfiltered, follows new payments as they come. */}
      {live ? <LivePayments signature={await recentPaymentsSignature(db, merchant.id)} /> : null}
      <h1 className="text-2xl font-semibold">{t("payments")}</h1>
      <form method="get" action="/home/payments" aria-label={t("filters")} className="mt-4 grid gap-3 sm:grid-cols-3">
        <div>
          <label htmlFor="status" className="block text-sm font-medium">
            {dashboard("status")}
          </label>
          <select id="status" name="status" defaultValue={query.status ?? ""} className={input}>
            <option value="">{dashboard("allStatuses")}</option>
            {chargeStatuses.map((s) => (
              <option key={s} value={s}>
                {dashboard(`chargeStatus.${s}`)}
              </option>
            ))}
          </select>
        </div>
        <div>
          <label htmlFor="type" className="block text-sm font-medium">
            {t("type")}
          </label>
          <select id="type" name="type" defaultValue={query.payment_type ?? ""} className={input}>
            <option value="">{t("allTypes")}</option>
            {paymentTypes.map((p) => (
              <option key={p} value={p}>
                {dashboard(`paymentTypes.${p}`)}
              </option>
            ))}
          </select>
        </div>
        <div>
          <label htmlFor="amount" className="block text-sm font-medium">
            {t("amount")}
          </label>
          <input
            id="amount"
            name="amount"
            inputMode="decimal"
            defaultValue={raw.amount ?? ""}
            className={input}
            {...described("amount")}
          />
          {problem("amount")}
        </div>
        <div>
          <label htmlFor="from" className="block text-sm font-medium">
            {t("from")}
          </label>
          <input
            id="from"
            name="from"
            type="date"
            defaultValue={raw.from ?? ""}
            className={input}
            {...described("from")}
          />
          {problem("from")}
        </div>
        <div>
          <label htmlFor="to" className="block text-sm font-medium">
            {t("to")}
          </label>
          <input id="to" name="to" type="date" defaultValue={raw.to ?? ""} className={input} {...described("to")} />
          {problem("to")}
        </div>
        <div>
          <label htmlFor="last4" className="block text-sm font-medium">
            {t("last4")}
          </label>
          <input
            id="last4"
            name="last4"
            inputMode="numeric"
            maxLength={4}
            defaultValue={raw.last4 ?? ""}
            className={input}
            {...described("last4")}
          />
          {problem("last4")}
        </div>
        <div className="flex flex-wrap items-center gap-3 sm:col-span-3">
          <button type="submit" className="rounded-lg bg-primary px-5 py-3 font-semibold text-on-primary">
            {t("apply")}
          </button>
          {filtered ? (
            <Link href="/home/payments" className="underline">
              {t("clear")}
            </Link>
          ) : null}
        </div>
      </form>
      <section aria-labelledby="list-title" className="mt-6">
        <h2 id="list-title" className="sr-only">
          {t("payments")}
        </h2>
        {page.rows.length === 0 ? (
          <p>{filtered ? t("noMatch") : t("noPayments")}</p>
        ) : (
          <HomePaymentsTable charges={page.rows} labelledBy="list-title" testId="payments" withType />
        )}
        <nav aria-label={t("payments")} className="mt-4 flex gap-4">
          {hasNewer && page.rows[0] ? (
            <Link className="underline" href={pageLink("before", page.rows[0].id)}>
              {dashboard("previous")}
            </Link>
          ) : null}
          {hasOlder && page.rows.at(-1) ? (
            <Link className="underline" href={pageLink("after", page.rows.at(-1)!.id)}>
              {dashboard("next")}
            </Link>
          ) : null}
        </nav>
      </section>
    </HomeShell>
  );
}
