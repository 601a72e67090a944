import { headers } from "next/headers";
import { notFound } from "next/navigation";
import { getLocale, getTranslations } from "next-intl/server";
import type { ReactNode } from "react";

import { BrandShell } from "@/components/onboarding/brand-shell";
import { LiveStatus } from "@/components/pay/live-status";
import { PayForm } from "@/components/pay/pay-form";
import { PrintReceipt } from "@/components/pay/print-receipt";
import { LocalTime } from "@/components/ui/local-time";
import { getDatabase } from "@/lib/db/client";
import { type PayPageView, viewPayPage } from "@/lib/domain/payments/view-pay-page";
import { intlLocale } from "@/lib/i18n/locales";
import { formatCents } from "@/lib/money";
import { achAuthorizationText } from "@/lib/payments/ach-authorization";
import { brandName } from "@/lib/payments/brands";
import { saveConsentText } from "@/lib/payments/save-consent";

export const dynamic = "force-dynamic";

type Props = { params: Promise<{ id: string }> };

export async function generateMetadata({ params }: Props) {
  const t = await getTranslations("pay");
  const view = await viewPayPage((await getDatabase()).db, (await params).id, (await headers()).get("host") ?? "");
  return { title: view ? t("title", { business: view.business }) : t("notFoundTitle"), robots: { index: false } };
}

// /pay/{id}: the hosted page of every payment request (docs/reference.md section 12): scan-to-pay,
// invoice, card entry (virtual terminal) and terminal progress; the receipt once paid; a clear
// "no longer payable" page once canceled or expired.
export default async function PayPage({ params }: Props) {
  const t = await getTranslations("pay");
  const locale = await getLocale();
  const view = await viewPayPage((await getDatabase()).db, (await params).id, (await headers()).get("host") ?? "");
  // A 404 that says so, on the host's brand (./not-found.tsx).
  if (!view) notFound();
  const money = (cents: number) => formatCents(cents, intlLocale(locale));
  // In the customer's own time zone once the page runs (UTC before: components/ui/local-time.tsx).
  const when = (iso: string) => <LocalTime iso={iso} locale={intlLocale(locale)} />;
  const title =
    view.status === "PAID"
      ? t("receiptTitle", { business: view.business })
      : view.status !== "PENDING"
        ? t("requestTitle", { business: view.business })
        : view.type === "INVOICE"
          ? t("invoiceTitle", { business: view.business })
          : view.type === "MANUAL"
            ? t("manualTitle", { business: view.business })
            : view.type === "TERMINAL"
              ? t("terminalTitle", { business: view.business })
              : t("title", { business: view.business });

  return (
    <BrandShell branding={view.branding} footerNote={t("footer")} lead={view.business} narrow>
      <div className="space-y-5">
        <h1 className="text-2xl font-semibold break-words">{title}</h1>
        {view.description ? (
          <p>
            <span className="font-semibold">{t("description")}:</span> {view.description}
          </p>
        ) : null}
        <Summary view={view} money={money} t={t} />
        {view.status === "PAID" && view.receipt ? (
          <section
            role="status"
            aria-labelledby="paid-title"
            className="rounded-lg border border-green-700 bg-green-50 p-5 text-green-950"
            data-testid="receipt"
          >
            <h2 id="paid-title" className="text-xl font-semibold">
              {view.receipt.processing ? t("processingTitle") : t("paidTitle")}
            </h2>
            <p className="mt-2">
              {t(view.receipt.processing ? "processingBody" : "paidBody", {
                amount: money(view.receipt.amount),
                business: view.business,
              })}
            </p>
            <dl className="mt-3 grid grid-cols-[auto_1fr] gap-x-4 gap-y-1">
              <dt className="text-green-900">{t("receiptNumber")}</dt>
              <dd className="font-mono break-all">{view.receipt.number}</dd>
              <dt className="text-green-900">{view.receipt.method === "ach" ? t("bankAccount") : t("card")}</dt>
              <dd>
                {view.receipt.method === "ach"
                  ? (view.receipt.bankName ?? t("bankAccount"))
                  : brandName(view.receipt.brand)}{" "}
                •••• {view.receipt.last4}
              </dd>
              <dt className="text-green-900">{t("date")}</dt>
              <dd>{when(view.receipt.at)}</dd>
            </dl>
            {/* How to reach the business about this payment: its address, phone and e-mail. */}
            <address className="mt-3 not-italic" data-testid="receipt-contact">
              <span className="font-semibold">{view.business}</span>
              {[view.receipt.contact.address, view.receipt.contact.phone, view.receipt.contact.email]
                .filter((line): line is string => Boolean(line))
                .map((line) => (
                  <span key={line} className="block break-words">
                    {line}
                  </span>
                ))}
            </address>
            <PrintReceipt label={t("printReceipt")} />
          </section>
        ) : view.status !== "PENDING" ? (
          <section
            role="status"
            aria-labelledby="closed-title"
            className="rounded-lg border border-line bg-card p-5"
            data-testid="not-payable"
          >
            <h2 id="closed-title" className="text-xl font-semibold">
              {t("closedTitle")}
            </h2>
            <p className="mt-2">{t(`closed_${view.status}`, { business: view.business })}</p>
            <p className="mt-2">{t("closedHelp", { business: view.business })}</p>
          </section>
        ) : view.locked ? (
          <section
            role="status"
            aria-labelledby="locked-title"
            className="rounded-lg border border-line bg-card p-5"
            data-testid="locked"
          >
            <LiveStatus requestId={view.id} status={view.status} failure={view.lastFailureReason} locked />
            <h2 id="locked-title" className="text-xl font-semibold">
              {t("lockedTitle")}
            </h2>
            <p className="mt-2">{t("lockedBody", { business: view.business })}</p>
          </section>
        ) : (
          <Payable view={view} money={money} t={t} locale={locale} when={when} />
        )}
      </div>
    </BrandShell>
  );
}

type T = Awaited<ReturnType<typeof getTranslations<"pay">>>;

function Summary({ view, money, t }: { view: PayPageView & object; money: (c: number) => string; t: T }) {
  return (
    <section aria-labelledby="summary-title" className="rounded-lg border border-line bg-card p-5">
      <h2 id="summary-title" className="sr-only">
        {t("summary")}
      </h2>
      {view.items?.length ? (
        <table className="mb-3 w-full text-left">
          <thead>
            <tr className="border-b border-line text-sm text-muted">
              <th scope="col" className="py-1 pr-2 font-medium">
                {t("item")}
              </th>
              <th scope="col" className="py-1 pr-2 text-right font-medium">
                {t("quantity")}
              </th>
              <th scope="col" className="py-1 text-right font-medium">
                {t("lineTotal")}
              </th>
            </tr>
          </thead>
          <tbody>
            {view.items.map((item, i) => (
              <tr key={i} className="border-b border-line last:border-0">
                <td className="py-1 pr-2 break-words">{item.name}</td>
                <td className="py-1 pr-2 text-right tabular-nums">{item.quantity}</td>
                <td className="py-1 text-right tabular-nums">{money(item.quantity * item.unit_price)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
      <dl className="grid grid-cols-[1fr_auto] gap-y-1 tabular-nums">
        <dt>{t("subtotal")}</dt>
        <dd className="text-right">{money(view.amount)}</dd>
        {view.tax ? (
          <>
            <dt>{view.taxPercent ? t("taxWithRate", { rate: view.taxPercent }) : t("tax")}</dt>
            <dd className="text-right">{money(view.tax)}</dd>
          </>
        ) : null}
        {view.tip ? (
          <>
            <dt>{t("tip")}</dt>
            <dd className="text-right">{money(view.tip)}</dd>
          </>
        ) : null}
        <dt className="border-t border-line pt-2 text-lg font-semibold">{t("total")}</dt>
        <dd className="border-t border-line pt-2 text-right text-lg font-semibold" data-testid="total">
          {money(view.total)}
        </dd>
      </dl>
    </section>
  );
}

function Payable({
  view,
  money,
  t,
  locale,
  when,
}: {
  view: PayPageView & object;
  money: (c: number) => string;
  t: T;
  locale: string;
  when: (iso: string) => ReactNode;
}) {
  const accent = view.branding.primary_color ?? "#1d4ed8";
  const form = (
    <PayForm
      requestId={view.id}
      publishableKey={view.publishableKey}
      locale={locale}
      accent={accent}
      amountLabel={money(view.total)}
      bankPayments={view.bankPayments}
      achAuthorization={
        view.bankPayments ? achAuthorizationText(locale === "es" ? "es" : "en", view.achAuthorization) : undefined
      }
      tokenizerOrigin={view.tokenizerOrigin}
      staff={view.type === "MANUAL"}
      receiptEmail={view.receiptEmail}
      saveConsent={
        view.offersToSave
          ? {
              card: saveConsentText(locale === "es" ? "es" : "en", view.business, "card"),
              bank_account: saveConsentText(locale === "es" ? "es" : "en", view.business, "bank_account"),
            }
          : undefined
      }
    />
  );
  if (view.type === "TERMINAL" && !view.terminalFallback) {
    return (
      <section
        role="status"
        aria-live="polite"
        className="rounded-lg border border-line bg-card p-5"
        data-testid="terminal-waiting"
      >
        <LiveStatus
          requestId={view.id}
          status={view.status}
          failure={view.lastFailureReason}
          refreshAt={view.terminalFallbackAt}
        />
        <p className="text-xl font-semibold">{t("terminalWaiting")}</p>
        <p className="mt-2">{t("terminalWaitingHelp")}</p>
      </section>
    );
  }
  return (
    <>
      <LiveStatus requestId={view.id} status={view.status} failure={view.lastFailureReason} />
      {view.type === "TERMINAL" ? (
        <section
          aria-labelledby="phone-title"
          className="rounded-lg border border-line bg-card p-5"
          data-testid="terminal-fallback"
        >
          <p role="status">
            {view.lastFailureReason
              ? t("terminalDeclined", { reason: t(`decline_${view.lastFailureReason}` as "decline_unknown") })
              : t("terminalTimedOut")}
          </p>
          <h2 id="phone-title" className="mt-3 text-xl font-semibold">
            {t("payOnPhone")}
          </h2>
          <p className="mt-1">{t("payOnPhoneHelp")}</p>
          <img src={view.qrUrl} alt={t("qrAlt")} width={200} height={200} className="mt-3 h-[200px] w-[200px]" />
        </section>
      ) : null}
      {view.type === "MANUAL" ? <p>{t("staffNote", { business: view.business })}</p> : null}
      <section className="rounded-lg border border-line bg-card p-5">
        {form}
        <p className="mt-3 text-sm text-muted">
          {t(view.type === "MANUAL" ? "secureStaff" : "secure", { business: view.business })}
        </p>
        <p className="mt-1 text-sm text-muted">{t.rich("expires", { date: () => when(view.expiresAt) })}</p>
      </section>
    </>
  );
}
