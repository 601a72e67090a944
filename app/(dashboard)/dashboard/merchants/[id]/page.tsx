import { notFound } from "next/navigation";
import { getFormatter, getLocale, getTranslations } from "next-intl/server";
import { formatCents } from "@/lib/money";
import { intlLocale } from "@/lib/i18n/locales";
import { requireIsvUser } from "@/lib/dashboard/session";
import { getMerchantActivity } from "@/lib/domain/merchants/get-merchant-activity";
import { merchantRequirements } from "@/lib/domain/merchants/requirements";
import { isFinal } from "@/lib/domain/merchants/status";
import { NewLinkButton } from "@/components/dashboard/new-link-button";
import { RefundForm } from "@/components/dashboard/refund-form";
import { brandName } from "@/lib/payments/brands";
import { getMerchantPayments } from "@/lib/domain/merchants/get-merchant-payments";
import { AppError } from "@/lib/errors";
import type { OnboardingStatus } from "@/lib/schemas/application";

export async function generateMetadata() {
  return { title: (await getTranslations("dashboard"))("merchantsTitle") };
}

// One merchant: status history (its events), requirements, the latest link and a new one.
export default async function MerchantPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const { db, account } = await requireIsvUser();
  const t = await getTranslations("dashboard");
  const format = await getFormatter();
  const {
    merchant,
    history,
    latestLink: link,
  } = await getMerchantActivity(db, account.id, id).catch((e) => {
    if (e instanceof AppError && e.type === "not_found_error") notFound();
    throw e;
  });
  const payments = await getMerchantPayments(db, account.id, merchant.id);
  const locale = await getLocale();
  const money = (cents: number) => formatCents(cents, intlLocale(locale));
  const when = (d: Date) => format.dateTime(d, { dateStyle: "medium", timeStyle: "short" });
  const requirements = merchantRequirements(merchant, {
    deviceRequired: (account.settings as { device_selection_required?: boolean }).device_selection_required !== false,
  });
  return (
    <div className="space-y-6">
      <div>
        <h1 className="text-2xl font-semibold">{(merchant.application.legal_business_name as string | undefined) ?? t("unnamed")}</h1>
        <p className="text-muted">
          {merchant.id} · {merchant.phone} · <strong>{t(`statusNames.${merchant.status}`)}</strong>
        </p>
      </div>
      <section>
        <h2 className="text-lg font-semibold">{t("requirements")}</h2>
        {requirements.currently_due.length === 0 ? (
          <p>{t("nothingDue")}</p>
        ) : (
          <ul className="list-disc pl-5">
            {requirements.currently_due.map((f) => (
              <li key={f}>
                {f}
                {requirements.errors.find((e) => e.field === f) ? `: ${requirements.errors.find((e) => e.field === f)!.message}` : ""}
              </li>
            ))}
          </ul>
        )}
      </section>
      <section>
        <h2 className="text-lg font-semibold">{t("latestLink")}</h2>
        {link ? (
          <p>
            {link.id} ·{" "}
            {t("linkCreated", {
              created: format.dateTime(link.createdAt, { dateStyle: "medium", timeStyle: "short" }),
              expires: format.dateTime(link.expiresAt, { dateStyle: "medium", timeStyle: "short" }),
            })}
            {link.supersededAt ? ` (${t("linkSuperseded")})` : ""}
          </p>
        ) : (
          <p>{t("noLink")}</p>
        )}
        {!isFinal(merchant.status) ? <NewLinkButton merchantId={merchant.id} /> : null}
      </section>
      <section aria-labelledby="payments-title">
        <h2 id="payments-title" className="text-lg font-semibold">
          {t("payments")}
        </h2>
        {payments.charges.length === 0 ? (
          <p>{t("noPayments")}</p>
        ) : (
          <div className="relative overflow-x-auto" role="region" aria-labelledby="payments-title" tabIndex={0}>
            <table className="mt-2 w-full text-left text-sm" data-testid="payments">
              <thead>
                <tr className="border-b border-line text-muted">
                  <th scope="col" className="py-1 pr-3 font-medium">
                    {t("date")}
                  </th>
                  <th scope="col" className="py-1 pr-3 text-right font-medium">
                    {t("amount")}
                  </th>
                  <th scope="col" className="py-1 pr-3 font-medium">
                    {t("card")}
                  </th>
                  <th scope="col" className="py-1 pr-3 font-medium">
                    {t("status")}
                  </th>
                  <th scope="col" className="py-1 pr-3 text-right font-medium">
                    {t("fee")}
                  </th>
                  <th scope="col" className="py-1 pr-3 text-right font-medium">
                    {t("refunded")}
                  </th>
                  <th scope="col" className="py-1 font-medium">
                    {t("refund")}
                  </th>
                </tr>
              </thead>
              <tbody>
                {payments.charges.map((c) => (
                  <tr key={c.id} className="border-b border-line align-top" data-charge={c.id}>
                    <td className="py-2 pr-3 whitespace-nowrap">{when(c.createdAt)}</td>
                    <td className="py-2 pr-3 text-right tabular-nums">{money(c.requestedAmount)}</td>
                    <td className="py-2 pr-3 whitespace-nowrap">
                      {c.paymentMethod === "ach" ? `${c.ach?.bank_name ?? t("bankAccount")} (ACH)` : brandName(c.cardBrand)} ••••{" "}
                      {c.paymentMethod === "ach" ? c.ach?.last4 : c.cardLast4}
                    </td>
                    <td className="py-2 pr-3">{t(`chargeStatus.${c.status}`)}</td>
                    <td className="py-2 pr-3 text-right tabular-nums">{c.fee === null ? "—" : money(c.fee)}</td>
                    <td className="py-2 pr-3 text-right tabular-nums" data-testid="refunded">
                      {money(c.amountRefunded)}
                    </td>
                    <td className="py-2">
                      {c.status !== "FAILED" && c.status !== "RETURNED" && c.amountRefunded < c.amountCaptured ? (
                        <RefundForm chargeId={c.id} merchantId={merchant.id} left={c.amountCaptured - c.amountRefunded} />
                      ) : null}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>
      <section aria-labelledby="settlements-title">
        <h2 id="settlements-title" className="text-lg font-semibold">
          {t("settlements")}
        </h2>
        {payments.settlements.length === 0 ? (
          <p>{t("noSettlements")}</p>
        ) : (
          <div className="relative overflow-x-auto" role="region" aria-labelledby="settlements-title" tabIndex={0}>
            <table className="mt-2 w-full text-left text-sm" data-testid="settlements">
              <thead>
                <tr className="border-b border-line text-muted">
                  <th scope="col" className="py-1 pr-3 font-medium">
                    {t("date")}
                  </th>
                  <th scope="col" className="py-1 pr-3 text-right font-medium">
                    {t("chargeCount")}
                  </th>
                  <th scope="col" className="py-1 pr-3 text-right font-medium">
                    {t("gross")}
                  </th>
                  <th scope="col" className="py-1 pr-3 text-right font-medium">
                    {t("refundsTotal")}
                  </th>
                  <th scope="col" className="py-1 pr-3 text-right font-medium">
                    {t("fees")}
                  </th>
                  <th scope="col" className="py-1 pr-3 text-right font-medium">
                    {t("net")}
                  </th>
                  <th scope="col" className="py-1 font-medium">
                    {t("payout")}
                  </th>
                </tr>
              </thead>
              <tbody>
                {payments.settlements.map((st) => (
                  <tr key={st.id} className="border-b border-line">
                    <td className="py-2 pr-3 whitespace-nowrap">{when(st.createdAt)}</td>
                    <td className="py-2 pr-3 text-right tabular-nums">{st.chargeCount}</td>
                    <td className="py-2 pr-3 text-right tabular-nums">{money(st.gross)}</td>
                    <td className="py-2 pr-3 text-right tabular-nums">{money(st.refunds)}</td>
                    <td className="py-2 pr-3 text-right tabular-nums">{money(st.fees)}</td>
                    <td className="py-2 pr-3 text-right tabular-nums">{money(st.net)}</td>
                    <td className="py-2">{t(`payoutStatus.${st.payoutStatus}`)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>
      <section aria-labelledby="statements-title">
        <h2 id="statements-title" className="text-lg font-semibold">
          {t("statements")}
        </h2>
        {payments.statements.length === 0 ? (
          <p>{t("noStatements")}</p>
        ) : (
          <ul className="mt-2 space-y-1" data-testid="statements">
            {payments.statements.map((st) => {
              const [y, m] = st.period.split("-").map(Number);
              const name = format.dateTime(new Date(Date.UTC(y!, m! - 1, 1)), { year: "numeric", month: "long", timeZone: "UTC" });
              return (
                <li key={st.id} className="flex flex-wrap gap-4">
                  <a className="underline" href={`/dashboard/merchants/${merchant.id}/statements/${st.id}`}>
                    {t("downloadPdf", { period: name })}
                  </a>
                  <a className="underline" href={`/dashboard/merchants/${merchant.id}/statements/${st.id}?format=csv`}>
                    {t("downloadCsv", { period: name })}
                  </a>
                </li>
              );
            })}
          </ul>
        )}
      </section>
      <section>
        <h2 className="text-lg font-semibold">{t("history")}</h2>
        <ol className="mt-2 space-y-1">
          {history.map((e) => (
            <li key={e.id}>
              <span className="text-muted">{format.dateTime(e.createdAt, { dateStyle: "medium", timeStyle: "medium" })}</span> · {e.type} ·{" "}
              {t(`statusNames.${(e.data as { lead_onboarding_status: OnboardingStatus }).lead_onboarding_status}`)}
            </li>
          ))}
        </ol>
      </section>
    </div>
  );
}
