import { headers } from "next/headers";
import Link from "next/link";
import { notFound } from "next/navigation";
import { getLocale, getTranslations } from "next-intl/server";
import { cache } from "react";

import { HomeShell } from "@/components/home/home-shell";
import { LiveStatus } from "@/components/pay/live-status";
import { PayForm } from "@/components/pay/pay-form";
import { hostedBaseUrl } from "@/lib/branding/hosts";
import { brandOf } from "@/lib/domain/accounts/isv-facts";
import { findPaymentRequest } from "@/lib/domain/payments/find-payment-request";
import { effectiveStatus } from "@/lib/domain/payments/status";
import { viewPayPage } from "@/lib/domain/payments/view-pay-page";
import { nullIfNotFound } from "@/lib/errors";
import { requireMerchant } from "@/lib/home/session";
import { intlLocale } from "@/lib/i18n/locales";
import { businessName } from "@/lib/merchants/facts";
import { formatCents } from "@/lib/money";
import { achAuthorizationText } from "@/lib/payments/ach-authorization";
import { requestTotal } from "@/lib/payments/total";
import { payPageUrl, qrCodeUrl } from "@/lib/serializers/payment-request";

// One request of the merchant's own (another merchant's id: not found), once per render.
const load = cache(async (requestId: string) => {
  const { db, merchant, scope, isv } = await requireMerchant();
  const request = await findPaymentRequest(db, scope, requestId).catch(nullIfNotFound);
  if (!request) notFound();
  return { db, merchant, isv, request };
});

export async function generateMetadata({ params }: { params: Promise<{ requestId: string }> }) {
  const t = await getTranslations("merchantHome");
  const { request } = await load((await params).requestId);
  const total = requestTotal(request);
  return { title: t("requestPageTitle", { amount: formatCents(total, intlLocale(await getLocale())) }) };
}

// /home/take-payment/{request_id}: a request the merchant made, where it is paid or followed: a
// card typed in place (the tokenizer's frame: this page never sees the number), the QR code to
// show at the counter, or the invoice's link; live until paid, then a link to the payment.
export default async function HomeRequestPage({ params }: { params: Promise<{ requestId: string }> }) {
  const { db, merchant, isv, request } = await load((await params).requestId);
  const t = await getTranslations("merchantHome");
  const dashboard = await getTranslations("dashboard");
  const locale = await getLocale();
  const money = (cents: number) => formatCents(cents, intlLocale(locale));
  const brand = brandOf(isv);
  const business = businessName(merchant) || merchant.id;
  const status = effectiveStatus(request, Date.now());
  const total = requestTotal(request);
  // The card form's facts (its key, the tokenizer's origin, bank payments): as the hosted page has
  // them. Only for a typed card: opening an invoice's view would mark it seen by the customer.
  const view =
    request.paymentType === "MANUAL" && status === "PENDING"
      ? await viewPayPage(db, request.id, (await headers()).get("host") ?? "")
      : null;
  const base = hostedBaseUrl(isv);
  return (
    <HomeShell branding={brand} business={business} section="take">
      <Link href="/home/take-payment" className="text-sm underline">
        {t("another")}
      </Link>
      <h1 className="mt-2 text-2xl font-semibold">{t("requestPageTitle", { amount: money(total) })}</h1>
      <p className="mt-1 text-muted">
        {dashboard(`paymentTypes.${request.paymentType}`)}
        {request.description ? ` · ${request.description}` : ""}
      </p>
      {status === "PENDING" ? (
        <LiveStatus requestId={request.id} status={status} failure={request.lastFailureReason} />
      ) : null}
      <div className="mt-4">
        {status === "PAID" ? (
          <section role="status" className="rounded-lg border border-green-700 bg-green-50 p-5 text-green-950">
            <p className="font-semibold" data-testid="request-paid">
              {t("requestPaid")}
            </p>
            {request.chargeId ? (
              <Link href={`/home/payments/${request.chargeId}`} className="mt-2 inline-block underline">
                {t("openPayment")}
              </Link>
            ) : null}
          </section>
        ) : status !== "PENDING" ? (
          <p role="status" className="rounded-lg border border-line bg-card p-5">
            {t("requestClosed", { status: dashboard(`requestStatus.${status}`) })}
          </p>
        ) : request.paymentType === "SCAN_TO_PAY" ? (
          <section className="rounded-lg border border-line bg-card p-5 text-center">
            <p>{t("qrHelp")}</p>
            <img
              src={qrCodeUrl("", request.id)}
              alt={t("qrAlt", { amount: money(total) })}
              width={240}
              height={240}
              className="mx-auto mt-3 h-[240px] w-[240px]"
              data-testid="request-qr"
            />
          </section>
        ) : request.paymentType === "INVOICE" ? (
          <section className="rounded-lg border border-line bg-card p-5">
            <p>{request.emailAddress ? t("invoiceSent", { email: request.emailAddress }) : t("invoiceLink")}</p>
            <a href={payPageUrl(base, request.id)} className="mt-2 inline-block break-all underline">
              {payPageUrl(base, request.id)}
            </a>
          </section>
        ) : view && !view.locked ? (
          <section className="rounded-lg border border-line bg-card p-5">
            <p className="mb-3">{t("cardHelp", { name: brand.display_name })}</p>
            <PayForm
              requestId={view.id}
              publishableKey={view.publishableKey}
              locale={locale}
              accent={brand.primary_color ?? "#1d4ed8"}
              amountLabel={money(view.total)}
              bankPayments={view.bankPayments}
              achAuthorization={
                view.bankPayments
                  ? achAuthorizationText(locale === "es" ? "es" : "en", view.achAuthorization)
                  : undefined
              }
              tokenizerOrigin={view.tokenizerOrigin}
              staff
            />
          </section>
        ) : (
          <p role="status" className="rounded-lg border border-line bg-card p-5">
            {t("requestLocked")}
          </p>
        )}
      </div>
    </HomeShell>
  );
}
