import { getTranslations } from "next-intl/server";

import { HomeShell } from "@/components/home/home-shell";
import { NextPayoutCard } from "@/components/home/next-payout";
import { PayoutScheduleCard } from "@/components/home/payout-schedule-card";
import { RiskBanner } from "@/components/home/risk-banner";
import { BalanceCard } from "@/components/payments/balance-card";
import { PayoutsTable } from "@/components/payments/payouts-table";
import { SettlementsTable } from "@/components/payments/settlements-table";
import { brandOf } from "@/lib/domain/accounts/isv-facts";
import { getBalance } from "@/lib/domain/balance/get-balance";
import { homeOverview } from "@/lib/domain/home/overview";
import { homePayoutFacts } from "@/lib/domain/home/payouts";
import { bankOf } from "@/lib/domain/payouts/status";
import { openAlertsOf } from "@/lib/domain/risk/risk-alerts";
import { requireMerchant } from "@/lib/home/session";
import { businessName } from "@/lib/merchants/facts";

export async function generateMetadata() {
  const t = await getTranslations("payouts");
  return { title: t("title") };
}

// /home/payouts: the next payout, the schedule and "pay out now", the settlements and the payouts (the embedded payouts component's page).
export default async function HomePayouts() {
  const { db, merchant, scope, isv } = await requireMerchant({ components: ["payouts"] });
  const t = await getTranslations("payouts");
  const [overview, facts] = await Promise.all([homeOverview(db, merchant), homePayoutFacts(db, merchant, isv)]);
  return (
    <HomeShell branding={brandOf(isv)} business={businessName(merchant) || merchant.id} section="payouts">
      <h1 className="text-2xl font-semibold">{t("title")}</h1>
      <RiskBanner alerts={await openAlertsOf(db, merchant.id)} isvName={brandOf(isv).display_name} />
      <BalanceCard balance={(await getBalance(db, scope)).balance} className="mt-4" />
      <NextPayoutCard next={overview.nextPayout} waiting={facts} className="mt-4" />
      <PayoutScheduleCard facts={facts} bankLast4={bankOf(merchant).last4} />
      <div className="mt-6">
        <SettlementsTable
          settlements={overview.settlements}
          isvName={brandOf(isv).display_name}
          href={(id) => `/home/settlements/${id}`}
        />
      </div>
      <div className="mt-6">
        <PayoutsTable
          payouts={overview.payouts}
          settlementHref={(id) => `/home/settlements/${id}`}
          payoutHref={(id) => `/home/payouts/${id}`}
        />
      </div>
    </HomeShell>
  );
}
