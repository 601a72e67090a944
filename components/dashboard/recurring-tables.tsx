import Link from "next/link";
import { getFormatter, getLocale, getTranslations } from "next-intl/server";

import { DataTable } from "@/components/ui/data-table";
import { intlLocale } from "@/lib/i18n/locales";
import { formatCents } from "@/lib/money";
import type { SubscriptionJson } from "@/lib/schemas/subscriptions";
import type { CustomerJson } from "@/lib/serializers/customer";
import { type PaymentLinkJson, paymentLinkState } from "@/lib/serializers/payment-link";

// The tables of the dashboard's Customers page (app/(dashboard)/dashboard/customers): the rows in
// the ISV's words, each naming its merchant (a link to the merchant's page). On a phone the columns
// marked `wide` are left out: the row still says what, whose and where it stands.

type Names = Record<string, string>;
const cell = "py-2 pr-3 align-top";
const wideCell = `hidden ${cell} sm:table-cell`;

function MerchantCell({ id, names, wide }: { id: string; names: Names; wide?: boolean }) {
  return (
    <td className={wide ? wideCell : cell}>
      <Link className="underline" href={`/dashboard/merchants/${id}`}>
        {names[id] ?? id}
      </Link>
    </td>
  );
}

async function words() {
  const [t, format, locale] = await Promise.all([getTranslations("recurring"), getFormatter(), getLocale()]);
  const money = (cents: number) => formatCents(cents, intlLocale(locale));
  const day = (ms: number) => format.dateTime(new Date(ms), { dateStyle: "medium", timeZone: "UTC" });
  return { t, money, day };
}

export async function SubscriptionsTable({
  rows,
  merchants,
  customers,
}: {
  rows: SubscriptionJson[];
  merchants: Names;
  customers: Record<string, { name: string | null; email: string | null }>;
}) {
  const { t, money, day } = await words();
  const next = (s: SubscriptionJson) =>
    s.status === "canceled"
      ? t("endedOn", { date: day(s.ended_at ?? s.current_period_end) })
      : s.status === "past_due" && s.next_payment_attempt
        ? t("nextTry", { date: day(s.next_payment_attempt) })
        : s.status === "unpaid" || s.status === "past_due"
          ? t("onHold")
          : s.cancel_at_period_end
            ? t("endsOn", { date: day(s.current_period_end) })
            : t(s.status === "trialing" ? "trialEnds" : "renews", { date: day(s.current_period_end) });
  return (
    <DataTable
      id="subscriptions"
      title={t("views.subscriptions")}
      testId="dashboard-subscriptions"
      empty={rows.length === 0 ? t("noSubscriptions") : null}
      columns={[
        { label: t("customer") },
        { label: t("merchant"), wide: true },
        { label: t("plan") },
        { label: t("status") },
        { label: t("recovered"), align: "right", wide: true },
      ]}
    >
      {rows.map((s) => {
        const who = customers[s.customer];
        return (
          <tr key={s.id} className="border-b border-line">
            <td className={cell}>
              <span className="font-medium break-words">{who?.name ?? who?.email ?? t("unnamed")}</span>
              {who?.name && who.email ? <span className="block text-xs break-all text-muted">{who.email}</span> : null}
            </td>
            <MerchantCell id={s.merchant_id} names={merchants} wide />
            <td className={cell}>
              {s.description ?? s.items.map((i) => i.name).join(", ")}
              <span className="block text-xs text-muted">
                {money(s.amount)} {t(`every.${s.interval}`, { count: s.interval_count })}
              </span>
            </td>
            <td className={cell}>
              <span
                className={s.status === "past_due" || s.status === "unpaid" ? "font-semibold text-danger" : undefined}
              >
                {t(`statuses.${s.status}`)}
              </span>
              <span className="block text-xs text-muted">{next(s)}</span>
            </td>
            <td className={`${wideCell} text-right tabular-nums`}>{money(s.recovered_amount)}</td>
          </tr>
        );
      })}
    </DataTable>
  );
}

export async function CustomersTable({ rows, merchants }: { rows: CustomerJson[]; merchants: Names }) {
  const { t, day } = await words();
  return (
    <DataTable
      id="customers"
      title={t("views.customers")}
      testId="dashboard-customers"
      empty={rows.length === 0 ? t("noCustomers") : null}
      columns={[
        { label: t("customer") },
        { label: t("email"), wide: true },
        { label: t("merchant") },
        { label: t("since"), wide: true },
      ]}
    >
      {rows.map((c) => (
        <tr key={c.id} className="border-b border-line">
          <td className={`${cell} break-words`}>{c.name ?? c.email ?? t("unnamed")}</td>
          <td className={`${wideCell} break-all`}>{c.email ?? "—"}</td>
          <MerchantCell id={c.merchant_id} names={merchants} />
          <td className={`${wideCell} whitespace-nowrap`}>{day(c.created_at)}</td>
        </tr>
      ))}
    </DataTable>
  );
}

/** `now`: the page's time (ms, the service's clock), against which a link's expiry is read. */
export async function LinksTable({ rows, merchants, now }: { rows: PaymentLinkJson[]; merchants: Names; now: number }) {
  const { t, money } = await words();
  const said = { used_up: t("linkUsedUp"), expired: t("linkExpired"), on: t("linkOn"), off: t("linkOff") };
  const state = (l: PaymentLinkJson) => said[paymentLinkState(l, now)];
  return (
    <DataTable
      id="links"
      title={t("views.links")}
      testId="dashboard-links"
      empty={rows.length === 0 ? t("noLinks") : null}
      columns={[
        { label: t("link") },
        { label: t("merchant"), wide: true },
        { label: t("price") },
        { label: t("paidCount"), align: "right" },
      ]}
    >
      {rows.map((l) => (
        <tr key={l.id} className="border-b border-line">
          <td className={cell}>
            <a href={l.url} target="_blank" rel="noreferrer" className="font-medium break-all underline">
              {l.description ?? l.id}
            </a>
            <span className="block text-xs text-muted">{state(l)}</span>
          </td>
          <MerchantCell id={l.merchant_id} names={merchants} wide />
          <td className={`${cell} whitespace-nowrap`}>
            {l.customer_chooses_amount
              ? t("chooses", { min: money(l.customer_chooses_amount.min), max: money(l.customer_chooses_amount.max) })
              : money(l.amount ?? 0)}
          </td>
          <td className={`${cell} text-right tabular-nums`}>
            {l.max_uses !== null ? t("usesOf", { count: l.paid_count, max: l.max_uses }) : l.paid_count}
          </td>
        </tr>
      ))}
    </DataTable>
  );
}
