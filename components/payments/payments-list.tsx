import Link from "next/link";
import { getTranslations } from "next-intl/server";
import type { ComponentProps } from "react";

import { primaryButtonClass } from "@/components/ui/button";
import { type PaymentsQuery, readPaymentFilters } from "@/lib/domain/charges/payment-filters";
import { chargeStatuses, paymentTypes } from "@/lib/schemas/payment-values";

import { FilterField, FilterSelect } from "../ui/filter-field";
import { PaymentsTable } from "./payments-table";

type Filters = ReturnType<typeof readPaymentFilters>;
type Page = { rows: ComponentProps<typeof PaymentsTable>["charges"]; hasMore: boolean };

/**
 * A list of payments with its filters (status, how it was paid, dates, amount, the last 4 digits)
 * and its pages, as the merchant's home (`/home/payments`) and the ISV's dashboard
 * (`/dashboard/payments`, across merchants) show it: a plain GET form, so the filters are in the URL,
 * shareable, and work without JavaScript. `filters` is what readPaymentFilters made of `raw`; `page`
 * the charges list's answer to its query.
 */
export async function PaymentsList({
  action,
  raw,
  filters,
  page,
  title,
  empty,
  table,
}: {
  /** The page's own path: the form's action and its pages' links. */
  action: string;
  raw: PaymentsQuery;
  filters: Filters;
  page: Page;
  /** The list's (visually hidden) heading. */
  title: string;
  /** Said when there are no payments at all (not when the filters leave none). */
  empty: string;
  table: Omit<ComponentProps<typeof PaymentsTable>, "charges" | "labelledBy" | "testId">;
}) {
  const t = await getTranslations("merchantHome");
  const dashboard = await getTranslations("dashboard");
  const { query, problems, filtered } = filters;
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
    return `${action}?${params}`;
  };
  const backwards = Boolean(query.ending_before);
  const hasNewer = backwards ? page.hasMore : Boolean(query.starting_after);
  const hasOlder = backwards ? true : page.hasMore;
  const lastRow = page.rows.at(-1);
  const field = (id: "amount" | "from" | "to" | "last4", label: string, attrs: ComponentProps<"input">) => (
    <FilterField
      id={id}
      label={label}
      defaultValue={raw[id] ?? ""}
      problem={problems[id] ? t(`problems.${problems[id]}`) : null}
      {...attrs}
    />
  );
  return (
    <>
      {/* Keyed by its filters: a navigation to other filters ("Clear the filters") makes the fields
          anew, where kept inputs would still show what was typed before. */}
      <form
        key={kept.toString()}
        method="get"
        action={action}
        aria-label={t("filters")}
        className="mt-4 grid gap-3 sm:grid-cols-3"
      >
        <FilterSelect
          id="status"
          label={dashboard("status")}
          any={dashboard("allStatuses")}
          defaultValue={query.status}
          options={chargeStatuses.map((s) => ({ value: s, label: dashboard(`chargeStatus.${s}`) }))}
        />
        <FilterSelect
          id="type"
          label={t("type")}
          any={t("allTypes")}
          defaultValue={query.payment_type}
          options={paymentTypes.map((p) => ({ value: p, label: dashboard(`paymentTypes.${p}`) }))}
        />
        {field("amount", t("amount"), { inputMode: "decimal" })}
        {field("from", t("from"), { type: "date" })}
        {field("to", t("to"), { type: "date" })}
        {field("last4", t("last4"), { inputMode: "numeric", maxLength: 4 })}
        <div className="flex flex-wrap items-center gap-3 sm:col-span-3">
          <button type="submit" className={primaryButtonClass()}>
            {t("apply")}
          </button>
          {filtered ? (
            <Link href={action} className="underline">
              {t("clear")}
            </Link>
          ) : null}
        </div>
      </form>
      <section aria-labelledby="list-title" className="mt-6">
        <h2 id="list-title" className="sr-only">
          {title}
        </h2>
        {page.rows.length === 0 ? (
          <p>{filtered ? t("noMatch") : empty}</p>
        ) : (
          <PaymentsTable charges={page.rows} labelledBy="list-title" testId="payments" {...table} />
        )}
        <nav aria-label={title} className="mt-4 flex gap-4">
          {hasNewer && page.rows[0] ? (
            <Link className="underline" href={pageLink("before", page.rows[0].id)}>
              {dashboard("previous")}
            </Link>
          ) : null}
          {hasOlder && lastRow ? (
            <Link className="underline" href={pageLink("after", lastRow.id)}>
              {dashboard("next")}
            </Link>
          ) : null}
        </nav>
      </section>
    </>
  );
}
