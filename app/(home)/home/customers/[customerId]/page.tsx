import Link from "next/link";
import { notFound } from "next/navigation";
import { getTranslations } from "next-intl/server";

import { RequestPaymentForm } from "@/components/dashboard/request-payment-form";
import { ChargeSavedForm } from "@/components/home/charge-saved-form";
import { DetachMethodButton } from "@/components/home/detach-method-button";
import { HomeShell } from "@/components/home/home-shell";
import { SubscriptionList } from "@/components/home/subscription-list";
import { homeChargeSavedAction, homeCustomerRequestAction, homeDetachMethodAction } from "@/lib/actions/home-customers";
import { clock } from "@/lib/clock";
import { brandOf } from "@/lib/domain/accounts/isv-facts";
import { findCustomer } from "@/lib/domain/customers/customers";
import { listPaymentMethods } from "@/lib/domain/customers/payment-methods";
import { subscriptionsJson } from "@/lib/domain/subscriptions/json";
import { listSubscriptions } from "@/lib/domain/subscriptions/subscriptions";
import { nullIfNotFound } from "@/lib/errors";
import { requireMerchant } from "@/lib/home/session";
import { businessName } from "@/lib/merchants/facts";
import { brandName } from "@/lib/payments/brands";
import { cardExpired } from "@/lib/payments/card-expiry";

type Props = { params: Promise<{ customerId: string }> };

export async function generateMetadata() {
  const t = await getTranslations("merchantHome.customers");
  return { title: t("title") };
}

// /home/customers/{id}: one customer of the merchant (docs/reference.md section 21): their saved
// cards (each removable), a charge of a saved card without them present, and an invoice whose pay
// page offers to save the card they pay with.
export default async function CustomerPage({ params }: Props) {
  const { db, merchant, scope, isv } = await requireMerchant();
  const t = await getTranslations("merchantHome.customers");
  const customer = await findCustomer(db, scope, (await params).customerId).catch(nullIfNotFound);
  if (!customer) notFound();
  const { rows: methods } = await listPaymentMethods(db, scope, { customer: customer.id, limit: 100 });
  const now = clock.now();
  const describe = (m: (typeof methods)[number]) =>
    m.type === "card"
      ? t("cardLabel", {
          brand: brandName(m.brand ?? ""),
          last4: m.last4,
          expiry: `${String(m.expMonth).padStart(2, "0")}/${m.expYear}`,
        })
      : t("bankLabel", { bank: m.bankName ?? "", last4: m.last4 });
  const usable = methods.filter((m) => !cardExpired(m, now));
  const { rows: subs } = await listSubscriptions(db, scope, { customer: customer.id, limit: 100 });
  return (
    <HomeShell branding={brandOf(isv)} business={businessName(merchant) || merchant.id} section="customers">
      <p>
        <Link href="/home/customers" className="underline">
          {t("back")}
        </Link>
      </p>
      <h1 className="mt-2 text-2xl font-semibold break-words">{customer.name ?? customer.email ?? t("unnamed")}</h1>
      {customer.email ? <p className="mt-1 break-all text-muted">{customer.email}</p> : null}

      <section aria-labelledby="saved-title" className="mt-5 rounded-lg border border-line bg-card p-4">
        <h2 id="saved-title" className="text-lg font-semibold">
          {t("savedTitle")}
        </h2>
        {methods.length === 0 ? (
          <p className="mt-2">{t("noSaved")}</p>
        ) : (
          <ul className="mt-2 divide-y divide-line" data-testid="saved-methods">
            {methods.map((m) => (
              <li key={m.id} className="flex flex-wrap items-center justify-between gap-2 py-2">
                <span>
                  {describe(m)}
                  {cardExpired(m, now) ? <span className="ml-2 text-sm text-red-700">{t("expired")}</span> : null}
                </span>
                <DetachMethodButton id={m.id} label={describe(m)} action={homeDetachMethodAction} />
              </li>
            ))}
          </ul>
        )}
        {usable.length > 0 ? (
          <>
            <h3 className="mt-4 font-semibold">{t("chargeTitle")}</h3>
            <p className="text-sm text-muted">{t("chargeHelp")}</p>
            <ChargeSavedForm
              customerId={customer.id}
              methods={usable.map((m) => ({ id: m.id, label: describe(m) }))}
              action={homeChargeSavedAction}
            />
          </>
        ) : null}
      </section>

      <section aria-labelledby="subs-title" className="mt-5 rounded-lg border border-line bg-card p-4">
        <h2 id="subs-title" className="text-lg font-semibold">
          {t("subsTitle")}
        </h2>
        <SubscriptionList rows={await subscriptionsJson(db, subs)} />
      </section>

      <div className="mt-5">
        <RequestPaymentForm
          merchantId={merchant.id}
          action={homeCustomerRequestAction}
          types={["INVOICE"]}
          title={t("requestTitle")}
          extra={{ customer: customer.id }}
          defaultEmail={customer.email ?? undefined}
        />
        <p className="mt-2 text-sm text-muted">{t("requestHelp")}</p>
      </div>
    </HomeShell>
  );
}
