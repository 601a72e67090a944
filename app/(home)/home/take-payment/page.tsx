import Link from "next/link";
import { getFormatter, getLocale, getTranslations } from "next-intl/server";

import { RequestPaymentForm } from "@/components/dashboard/request-payment-form";
import { HomeShell } from "@/components/home/home-shell";
import { PaymentLinkForm } from "@/components/home/payment-link-form";
import { PaymentLinkList } from "@/components/home/payment-link-list";
import { homeRequestPaymentAction } from "@/lib/actions/home";
import { homeCreateLinkAction } from "@/lib/actions/home-links";
import { hostedBaseUrl } from "@/lib/branding/hosts";
import { brandOf } from "@/lib/domain/accounts/isv-facts";
import { listPaymentLinks } from "@/lib/domain/payment-links/payment-links";
import { listPaymentRequests } from "@/lib/domain/payments/list-payment-requests";
import { effectiveStatus } from "@/lib/domain/payments/status";
import { requireMerchant } from "@/lib/home/session";
import { intlLocale } from "@/lib/i18n/locales";
import { businessName } from "@/lib/merchants/facts";
import { formatCents } from "@/lib/money";
import { requestTotal } from "@/lib/payments/total";
import { serializePaymentLink } from "@/lib/serializers/payment-link";

export async function generateMetadata() {
  const t = await getTranslations("merchantHome");
  return { title: t("takeTitle") };
}

// /home/take-payment: the merchant asks a customer to pay: a card typed in while the customer is on
// the phone (paid in place, on the request's page), an invoice, or a QR code for the counter; and
// its latest requests with where they stand.
export default async function TakePayment() {
  const { db, merchant, scope, isv } = await requireMerchant();
  const t = await getTranslations("merchantHome");
  const dashboard = await getTranslations("dashboard");
  const format = await getFormatter();
  const locale = intlLocale(await getLocale());
  const money = (cents: number) => formatCents(cents, locale);
  const [recent, links] = await Promise.all([
    listPaymentRequests(db, scope, { limit: 10 }),
    listPaymentLinks(db, scope, { limit: 50 }),
  ]);
  const linkWords = await getTranslations("merchantHome.links");
  const now = Date.now();
  return (
    <HomeShell branding={brandOf(isv)} business={businessName(merchant) || merchant.id} section="take">
      <h1 className="text-2xl font-semibold">{t("takeTitle")}</h1>
      <p className="mt-2">{t("takeIntro")}</p>
      <div className="mt-4">
        <RequestPaymentForm
          merchantId={merchant.id}
          action={homeRequestPaymentAction}
          types={["MANUAL", "INVOICE", "SCAN_TO_PAY"]}
          openAt="/home/take-payment"
          title={t("takeForm")}
        />
      </div>
      <section aria-labelledby="links-title" className="mt-6">
        <h2 id="links-title" className="text-lg font-semibold">
          {linkWords("title")}
        </h2>
        <p className="mt-1">{linkWords("intro")}</p>
        <div className="mt-2 rounded-lg border border-line bg-card p-4">
          <h3 className="font-semibold">{linkWords("newTitle")}</h3>
          <PaymentLinkForm action={homeCreateLinkAction} />
        </div>
        <h3 className="mt-4 font-semibold">{linkWords("listTitle")}</h3>
        <PaymentLinkList links={links.rows.map((l) => serializePaymentLink(l, hostedBaseUrl(isv)))} />
      </section>
      <section aria-labelledby="requests-title" className="mt-6">
        <h2 id="requests-title" className="text-lg font-semibold">
          {t("recentRequests")}
        </h2>
        {recent.rows.length === 0 ? (
          <p className="mt-2">{t("noRequests")}</p>
        ) : (
          <ul className="mt-2 divide-y divide-line rounded-lg border border-line bg-card" data-testid="requests">
            {recent.rows.map((r) => (
              <li key={r.id} className="flex flex-wrap items-baseline justify-between gap-2 p-3">
                <Link href={`/home/take-payment/${r.id}`} className="font-medium underline">
                  {money(requestTotal(r))} · {dashboard(`paymentTypes.${r.paymentType}`)}
                </Link>
                <span className="text-sm text-muted">
                  {dashboard(`requestStatus.${effectiveStatus(r, now)}`)} ·{" "}
                  {format.dateTime(r.createdAt, { dateStyle: "medium", timeStyle: "short" })}
                </span>
              </li>
            ))}
          </ul>
        )}
      </section>
    </HomeShell>
  );
}
