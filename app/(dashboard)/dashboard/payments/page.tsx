import { getTranslations } from "next-intl/server";

import { PaymentsList } from "@/components/payments/payments-list";
import { requireIsvUser } from "@/lib/dashboard/session";
import { listCharges } from "@/lib/domain/charges/list-charges";
import { type PaymentsQuery, readPaymentFilters } from "@/lib/domain/charges/payment-filters";
import { businessName } from "@/lib/merchants/facts";

export async function generateMetadata() {
  return { title: (await getTranslations("dashboard"))("paymentsTitle") };
}

// /dashboard/payments: the payments of every merchant of the ISV, newest first, 25 a page, found by
// status, how they were paid, dates, amount and the card's or account's last 4 digits (the home's
// filters: components/payments/payments-list.tsx), each naming its merchant.
export default async function PaymentsPage({ searchParams }: { searchParams: Promise<PaymentsQuery> }) {
  const { db, account } = await requireIsvUser("payments:read");
  const t = await getTranslations("dashboard");
  const raw = await searchParams;
  const filters = readPaymentFilters(raw);
  const page = await listCharges(db, { isvAccountId: account.id }, filters.query);
  return (
    <div>
      <h1 className="text-2xl font-semibold">{t("paymentsTitle")}</h1>
      <p className="mt-1 text-muted">{t("paymentsAcross")}</p>
      <PaymentsList
        action="/dashboard/payments"
        raw={raw}
        filters={filters}
        page={page}
        title={t("paymentsTitle")}
        empty={t("noPayments")}
        table={{
          withType: true,
          href: (c) => `/dashboard/merchants/${c.merchantId}/charges/${c.id}`,
          merchantOf: (c) => {
            const merchant = page.merchantOf(c);
            return {
              name: businessName(merchant) || merchant.id,
              href: `/dashboard/merchants/${merchant.id}?tab=payments`,
            };
          },
        }}
      />
    </div>
  );
}
