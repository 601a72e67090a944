import Link from "next/link";
import { getFormatter, getLocale, getTranslations } from "next-intl/server";

import { StatusBadge } from "@/components/dashboard/status-badge";
import { primaryButtonClass } from "@/components/ui/button";
import { ScrollRegion } from "@/components/ui/scroll-region";
import { requireIsvUser } from "@/lib/dashboard/session";
import { listMerchants } from "@/lib/domain/merchants/list-merchants";
import { merchantVolumes, VOLUME_DAYS } from "@/lib/domain/merchants/merchant-volume";
import { displayPhone } from "@/lib/i18n/display";
import { intlLocale } from "@/lib/i18n/locales";
import { formatCents } from "@/lib/money";
import { onboardingStatuses } from "@/lib/schemas/merchant";

export async function generateMetadata() {
  return { title: (await getTranslations("dashboard"))("merchantsTitle") };
}

// The ISV's merchants: filter by status, search by name or phone, newest first, paginated.
export default async function MerchantsPage({
  searchParams,
}: {
  searchParams: Promise<{ status?: string; q?: string; after?: string; before?: string }>;
}) {
  const { db, account } = await requireIsvUser("merchants:read");
  const t = await getTranslations("dashboard");
  const format = await getFormatter();
  const params = await searchParams;
  const status = (onboardingStatuses as readonly string[]).includes(params.status ?? "") ? params.status : undefined;
  const { rows, hasMore } = await listMerchants(db, account.id, {
    limit: 20,
    lead_onboarding_status: status,
    search: params.q,
    starting_after: params.after,
    ending_before: params.before,
  });
  const lastRow = rows.at(-1);
  const volumes = await merchantVolumes(
    db,
    account.id,
    rows.map((m) => m.id),
  );
  const locale = intlLocale(await getLocale());
  const qs = (extra: Record<string, string>) =>
    new URLSearchParams({ ...(status ? { status } : {}), ...(params.q ? { q: params.q } : {}), ...extra }).toString();
  return (
    <div>
      <h1 className="mb-4 text-2xl font-semibold">{t("merchantsTitle")}</h1>
      <form className="mb-4 flex flex-wrap items-end gap-3" role="search">
        <div>
          <label htmlFor="q" className="block text-sm font-medium">
            {t("search")}
          </label>
          <input
            id="q"
            name="q"
            type="search"
            defaultValue={params.q ?? ""}
            className="mt-1 rounded-lg border border-line bg-card px-3 py-2"
          />
        </div>
        <div>
          <label htmlFor="status" className="block text-sm font-medium">
            {t("status")}
          </label>
          <select
            id="status"
            name="status"
            defaultValue={status ?? ""}
            className="mt-1 rounded-lg border border-line bg-card px-3 py-2"
          >
            <option value="">{t("allStatuses")}</option>
            {onboardingStatuses.map((s) => (
              <option key={s} value={s}>
                {t(`statusNames.${s}`)}
              </option>
            ))}
          </select>
        </div>
        <button type="submit" className={primaryButtonClass("md")}>
          {t("filter")}
        </button>
      </form>
      {rows.length === 0 ? (
        <p>{t("none")}</p>
      ) : (
        <ScrollRegion label={t("merchantsTitle")}>
          {/* Below 640 px the phone and the creation date are left out (the merchant's page says them). */}
          <table className="w-full border-collapse text-left">
            <thead>
              <tr className="border-b border-line">
                <th className="py-2 pr-3">{t("name")}</th>
                <th className="hidden py-2 pr-3 sm:table-cell">{t("phone")}</th>
                <th className="py-2 pr-3">{t("status")}</th>
                <th className="hidden py-2 pr-3 sm:table-cell">{t("created")}</th>
                <th className="py-2 text-right">{t("volume", { days: VOLUME_DAYS })}</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((m) => (
                <tr key={m.id} className="border-b border-line">
                  <td className="py-2 pr-3">
                    <Link className="underline" href={`/dashboard/merchants/${m.id}`}>
                      {(m.application.legal_business_name as string | undefined) ?? t("unnamed")}
                    </Link>
                  </td>
                  <td className="hidden py-2 pr-3 whitespace-nowrap sm:table-cell">{displayPhone(m.phone)}</td>
                  <td className="py-2 pr-3">
                    <StatusBadge status={m.status} label={t(`statusNames.${m.status}`)} />
                    {m.deactivated ? (
                      <>
                        {" "}
                        <StatusBadge status="DEACTIVATED" label={t("deactivatedBadge")} />
                      </>
                    ) : null}
                  </td>
                  <td className="hidden py-2 pr-3 whitespace-nowrap sm:table-cell">
                    {format.dateTime(m.createdAt, { dateStyle: "medium", timeStyle: "short" })}
                  </td>
                  <td className="py-2 text-right tabular-nums whitespace-nowrap" data-testid="volume">
                    {formatCents(volumes.get(m.id)?.amount ?? 0, locale)}
                    <span className="block text-xs text-muted">
                      {t("paymentCount", { count: volumes.get(m.id)?.count ?? 0 })}
                    </span>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </ScrollRegion>
      )}
      <nav aria-label={t("pagination")} className="mt-4 flex gap-4">
        {params.after || params.before ? (
          rows[0] ? (
            <Link className="underline" href={`/dashboard/merchants?${qs({ before: rows[0].id })}`}>
              {t("previous")}
            </Link>
          ) : null
        ) : null}
        {hasMore || params.before ? (
          lastRow ? (
            <Link className="underline" href={`/dashboard/merchants?${qs({ after: lastRow.id })}`}>
              {t("next")}
            </Link>
          ) : null
        ) : null}
      </nav>
    </div>
  );
}
