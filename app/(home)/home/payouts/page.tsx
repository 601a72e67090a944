import { getFormatter, getLocale, getTranslations } from "next-intl/server";

import { HomeShell } from "@/components/home/home-shell";
import { PayoutsTable } from "@/components/payments/payouts-table";
import { SettlementsTable } from "@/components/payments/settlements-table";
import { brandOf } from "@/lib/domain/accounts/isv-facts";
import { homeOverview } from "@/lib/domain/home/overview";
import { businessName } from "@/lib/domain/merchants/merchant-facts";
import { requireMerchant } from "@/lib/home/session";
import { intlLocale } from "@/lib/i18n/locales";
import { formatCents } from "@/lib/money";

export async function generateMetadata() {
  const t = await getTranslations("payouts");
  return { title: t("title") };
}

// /home/payouts: the next payout, the settlements and the payouts (the embedded payouts component's page).
export default async function HomePayouts() {
  const { db, merchant, isv } = await requireMerchant({ components: ["payouts"] });
  const t = await getTranslations("payouts");
  const format = await getFormatter();
  const locale = intlLocale(await getLocale());
  const money = (cents: number) => formatCents(cents, locale);
  const overview = await homeOverview(db, merchant);
  const next = overview.nextPayout;
  return (
    <HomeShell branding={brandOf(isv)} business={businessName(merchant) || merchant.id} section="overview">
      <h1 className="text-2xl font-semibold">{t("title")}</h1>
      <div className="mt-4 rounded-lg border border-line bg-card p-4" data-testid="next-payout">
        <p className="text-sm text-muted">{t("next")}</p>
        {next ? (
          <>
            <p className="mt-1 text-2xl font-semibold">{money(next.amount)}</p>
            <p className="text-sm text-muted">
              {next.heldReason
                ? t("nextHeld", { reason: t(`held.${next.heldReason}`) })
                : next.arrivalDate
                  ? t("nextArrives", {
                      date: format.dateTime(new Date(`${next.arrivalDate}T12:00:00Z`), {
                        dateStyle: "medium",
                        timeZone: "UTC",
                      }),
                    })
                  : t(`statuses.${next.status}`)}
            </p>
          </>
        ) : (
          <p className="mt-1">{t("nextNone")}</p>
        )}
      </div>
      <div className="mt-6">
        <SettlementsTable settlements={overview.settlements} href={(id) => `/home/settlements/${id}`} />
      </div>
      <div className="mt-6">
        <PayoutsTable payouts={overview.payouts} settlementHref={(id) => `/home/settlements/${id}`} />
      </div>
    </HomeShell>
  );
}
