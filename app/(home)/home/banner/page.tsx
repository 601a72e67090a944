import { getLocale, getTranslations } from "next-intl/server";

import { HomeShell } from "@/components/home/home-shell";
import { brandOf } from "@/lib/domain/accounts/isv-facts";
import { listDisputes } from "@/lib/domain/disputes/list-disputes";
import { daysToRespond } from "@/lib/domain/disputes/rules";
import { homeAttention, homeOverview } from "@/lib/domain/home/overview";
import { requireMerchant } from "@/lib/home/session";
import { intlLocale } from "@/lib/i18n/locales";
import { businessName } from "@/lib/merchants/facts";
import { formatCents } from "@/lib/money";

export async function generateMetadata() {
  const t = await getTranslations("merchantHome.embed");
  return { title: t("bannerTitle") };
}

// /home/banner: what needs the merchant's attention, in a line each (the embedded notification
// banner's page): information asked, a bank account to replace, a refused payout, disputes to answer.
export default async function HomeBanner() {
  const { db, merchant, scope, isv } = await requireMerchant({ components: ["notification_banner"] });
  const t = await getTranslations("merchantHome");
  const payoutWords = await getTranslations("payouts");
  const disputeWords = await getTranslations("disputes");
  const locale = intlLocale(await getLocale());
  const money = (cents: number) => formatCents(cents, locale);
  const [overview, open] = await Promise.all([
    homeOverview(db, merchant),
    listDisputes(db, scope, { status: "needs_response", limit: 10 }),
  ]);
  const brand = brandOf(isv);
  const now = new Date();
  const notes = [
    ...homeAttention(merchant, isv).map((a) =>
      a.kind === "payout_failed"
        ? payoutWords("failedBanner", { amount: money(overview.failedPayout?.amount ?? 0) })
        : a.kind === "bank_account"
          ? t("dueBank")
          : t("due", { name: brand.display_name }),
    ),
    ...open.rows.map((d) =>
      disputeWords("banner", {
        amount: money(d.amount),
        respond: disputeWords("respondWithin", { days: daysToRespond(d.evidenceDueBy, now) }),
      }),
    ),
  ];
  return (
    <HomeShell branding={brand} business={businessName(merchant) || merchant.id} section="overview">
      <h1 className="sr-only">{t("embed.bannerTitle")}</h1>
      {notes.length === 0 ? (
        <p className="text-muted" data-embed-empty>
          {t("embed.nothingDue")}
        </p>
      ) : (
        <div className="space-y-2" data-testid="notifications">
          {notes.map((note) => (
            <p key={note} role="note" className="rounded-lg border-2 border-primary bg-card p-3">
              {note}
            </p>
          ))}
        </div>
      )}
    </HomeShell>
  );
}
