import { getTranslations } from "next-intl/server";

import { HomeShell } from "@/components/home/home-shell";
import { LivePayments } from "@/components/home/live-payments";
import { PaymentsList } from "@/components/payments/payments-list";
import { brandOf } from "@/lib/domain/accounts/isv-facts";
import { listCharges } from "@/lib/domain/charges/list-charges";
import { type PaymentsQuery, readPaymentFilters } from "@/lib/domain/charges/payment-filters";
import { recentPaymentsSignature } from "@/lib/domain/home/overview";
import { requireMerchant } from "@/lib/home/session";
import { businessName } from "@/lib/merchants/facts";

export async function generateMetadata() {
  const t = await getTranslations("merchantHome");
  return { title: t("payments") };
}

// /home/payments: the merchant's payments, newest first, 25 a page, filtered by status, how they
// were paid, dates, amount and the last 4 digits (components/payments/payments-list.tsx).
export default async function HomePayments({ searchParams }: { searchParams: Promise<PaymentsQuery> }) {
  const { db, merchant, scope, isv } = await requireMerchant({ components: ["payments"] });
  const raw = await searchParams;
  const filters = readPaymentFilters(raw);
  const { query, filtered } = filters;
  const page = await listCharges(db, scope, query);
  const t = await getTranslations("merchantHome");
  const live = !filtered && !query.starting_after && !query.ending_before;
  return (
    <HomeShell branding={brandOf(isv)} business={businessName(merchant) || merchant.id} section="payments">
      {/* The first page, unfiltered, follows new payments as they come. */}
      {live ? <LivePayments signature={await recentPaymentsSignature(db, merchant.id)} /> : null}
      <h1 className="text-2xl font-semibold">{t("payments")}</h1>
      <PaymentsList
        action="/home/payments"
        raw={raw}
        filters={filters}
        page={page}
        title={t("payments")}
        empty={t("noPayments")}
        table={{ withType: true }}
      />
    </HomeShell>
  );
}
