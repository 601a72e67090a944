import Link from "next/link";
import { getFormatter, getLocale, getTranslations } from "next-intl/server";

import { homeCancelSubscriptionAction } from "@/lib/actions/home-customers";
import { intlLocale } from "@/lib/i18n/locales";
import { formatCents } from "@/lib/money";
import type { SubscriptionJson } from "@/lib/schemas/subscriptions";

import { ConfirmButton } from "./confirm-button";

/**
 * A merchant's subscriptions in words (docs/reference.md section 21): what is billed how often, where
 * each stands (the next payment, a retry, the trial's or the subscription's end), what dunning
 * recovered, and a cancel button for those still running. `names`: each customer's name, to link
 * to them (the list of every customer's subscriptions).
 */
export async function SubscriptionList({ rows, names }: { rows: SubscriptionJson[]; names?: Map<string, string> }) {
  const t = await getTranslations("merchantHome.customers");
  const format = await getFormatter();
  const locale = intlLocale(await getLocale());
  const money = (cents: number) => formatCents(cents, locale);
  const day = (ms: number) => format.dateTime(new Date(ms), { dateStyle: "medium", timeZone: "UTC" });
  if (rows.length === 0) return <p className="mt-2">{t("noSubs")}</p>;
  return (
    <ul className="mt-2 divide-y divide-line" data-testid="subscriptions">
      {rows.map((s) => {
        const what = `${s.description ?? s.items.map((i) => i.name).join(", ")}, ${money(s.amount)} ${t(`every.${s.interval}`, { count: s.interval_count })}`;
        const when =
          s.status === "canceled"
            ? t("endedOn", { date: day(s.ended_at ?? s.current_period_end) })
            : s.status === "trialing"
              ? t("trialEnds", { date: day(s.current_period_end) })
              : s.status === "past_due" && s.next_payment_attempt
                ? t("nextTry", { date: day(s.next_payment_attempt) })
                : s.status === "unpaid" || s.status === "past_due"
                  ? null
                  : s.cancel_at_period_end
                    ? t("endsOn", { date: day(s.current_period_end) })
                    : t("nextPayment", { date: day(s.current_period_end) });
        const name = names?.get(s.customer);
        return (
          <li key={s.id} className="flex flex-wrap items-center justify-between gap-2 py-2">
            <div className="min-w-0">
              <p className="font-medium break-words">{what}</p>
              {name ? (
                <p className="text-sm">
                  <Link href={`/home/customers/${s.customer}`} className="underline">
                    {t("customerOf", { name })}
                  </Link>
                </p>
              ) : null}
              <p className="text-sm text-muted">
                <span className={s.status === "past_due" || s.status === "unpaid" ? "font-semibold text-red-700" : ""}>
                  {t(`subStatus.${s.status}`)}
                </span>
                {when ? ` · ${when}` : ""}
              </p>
              {s.recovered_amount > 0 ? (
                <p className="text-sm text-muted">{t("recoveredLine", { amount: money(s.recovered_amount) })}</p>
              ) : null}
            </div>
            {s.status !== "canceled" ? (
              <ConfirmButton
                id={s.id}
                text={t("cancel")}
                label={t("cancelLabel", { what })}
                confirm={t("cancelConfirm", { what })}
                action={homeCancelSubscriptionAction}
                failed={t("cancelError", { message: "{message}" })}
              />
            ) : null}
          </li>
        );
      })}
    </ul>
  );
}
