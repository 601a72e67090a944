import { getFormatter, getLocale, getTranslations } from "next-intl/server";

import { createReserveAction, releaseReserveAction } from "@/lib/actions/reserves";
import { intlLocale } from "@/lib/i18n/locales";
import { formatCents } from "@/lib/money";
import type { ReserveJson } from "@/lib/serializers/reserve";

import { ReleaseReserveButton, ReserveForm } from "./reserve-form";

/**
 * The merchant page's reserves (docs/reference.md section 20): each one's terms, what it holds, when
 * money comes back and its reason; a release button on the active ones; the form for a new one.
 */
export async function ReservesSection({
  merchantId,
  reserves,
  canAdd,
}: {
  merchantId: string;
  reserves: ReserveJson[];
  canAdd: boolean;
}) {
  const t = await getTranslations("reserves");
  const format = await getFormatter();
  const locale = intlLocale(await getLocale());
  const day = (date: string) =>
    format.dateTime(new Date(`${date}T12:00:00Z`), { dateStyle: "medium", timeZone: "UTC" });
  const terms = (r: ReserveJson) =>
    r.type === "rolling"
      ? t("rollingTerms", {
          percent: format.number((r.percent ?? 0) / 100, { style: "percent", maximumFractionDigits: 2 }),
          days: r.hold_days ?? 0,
        })
      : r.release_on
        ? t("fixedTermsUntil", { amount: formatCents(r.amount ?? 0, locale), date: day(r.release_on) })
        : t("fixedTerms", { amount: formatCents(r.amount ?? 0, locale) });
  return (
    <section aria-labelledby="reserves-title">
      <h2 id="reserves-title" className="text-lg font-semibold">
        {t("title")}
      </h2>
      <p className="text-sm text-muted">{t("hint")}</p>
      {reserves.length ? (
        <ul className="mt-3 divide-y divide-line rounded-lg border border-line bg-card" data-testid="reserves">
          {reserves.map((r) => (
            <li key={r.id} className="flex flex-wrap items-start justify-between gap-3 p-3">
              <div className="min-w-0">
                <p className="font-medium">
                  {terms(r)} · {t(`statuses.${r.status}`)}
                </p>
                <p className="text-sm">
                  {t("holds", { amount: formatCents(r.held, locale) })}
                  {r.next_release
                    ? ` · ${t("nextRelease", { amount: formatCents(r.next_release.amount, locale), date: day(r.next_release.date) })}`
                    : ""}
                </p>
                <p className="break-words text-sm text-muted">{t("reason", { reason: r.reason })}</p>
              </div>
              {r.status === "active" ? (
                <ReleaseReserveButton
                  action={releaseReserveAction.bind(null, merchantId, r.id)}
                  label={t("releaseLabel", { terms: terms(r) })}
                />
              ) : null}
            </li>
          ))}
        </ul>
      ) : (
        <p className="mt-2 text-sm">{t("none")}</p>
      )}
      {canAdd ? (
        <>
          <h3 className="mt-4 font-semibold">{t("form.title")}</h3>
          <ReserveForm action={createReserveAction.bind(null, merchantId)} />
        </>
      ) : null}
    </section>
  );
}
