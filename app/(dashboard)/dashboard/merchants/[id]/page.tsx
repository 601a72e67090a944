import { notFound } from "next/navigation";
import { getTranslations } from "next-intl/server";

import { ApplicationSection } from "@/components/dashboard/merchant/application-section";
import { HistorySection } from "@/components/dashboard/merchant/history-section";
import { PaymentsTables } from "@/components/dashboard/merchant/payments-tables";
import { RequirementsSection } from "@/components/dashboard/merchant/requirements-section";
import { ReservesSection } from "@/components/dashboard/merchant/reserves-section";
import { SettingsSections } from "@/components/dashboard/merchant/settings-sections";
import { VerificationTables } from "@/components/dashboard/merchant/verification-tables";
import { type MerchantTab, MerchantTabs, merchantTabs } from "@/components/dashboard/merchant-tabs";
import { NewLinkButton } from "@/components/dashboard/new-link-button";
import { OpenHomeButton } from "@/components/dashboard/open-home-button";
import { RequestPaymentForm } from "@/components/dashboard/request-payment-form";
import { StatusBadge } from "@/components/dashboard/status-badge";
import { PayoutScheduleForm } from "@/components/home/payout-schedule-form";
import { BalanceCard } from "@/components/payments/balance-card";
import { DisputesTable } from "@/components/payments/disputes-table";
import { PayoutsTable } from "@/components/payments/payouts-table";
import { SettlementsTable } from "@/components/payments/settlements-table";
import { StatementLinks } from "@/components/payments/statement-links";
import { merchantScheduleAction, requestPaymentAction } from "@/lib/actions/dashboard";
import { hostedBaseUrl } from "@/lib/branding/hosts";
import { requireIsvUser } from "@/lib/dashboard/session";
import { brandOf, settingsOf } from "@/lib/domain/accounts/isv-facts";
import { getBalance } from "@/lib/domain/balance/get-balance";
import { listDisputes } from "@/lib/domain/disputes/list-disputes";
import { listMerchantFiles } from "@/lib/domain/files/create-file";
import { getMerchantActivity } from "@/lib/domain/merchants/get-merchant-activity";
import { getMerchantPayments } from "@/lib/domain/merchants/get-merchant-payments";
import { requirementsFor } from "@/lib/domain/merchants/requirements";
import { isFinal } from "@/lib/domain/merchants/status";
import { listPaymentRequests } from "@/lib/domain/payments/list-payment-requests";
import { payoutSettingsOf } from "@/lib/domain/payouts/settings";
import { listReserves } from "@/lib/domain/reserves/reserves";
import { nullIfNotFound } from "@/lib/errors";
import { displayPhone } from "@/lib/i18n/display";
import type { LooseJson } from "@/lib/loose-json";
import { serializeMerchant } from "@/lib/serializers/merchant";
import { serializePaymentRequest } from "@/lib/serializers/payment-request";

export async function generateMetadata({ params }: { params: Promise<{ id: string }> }) {
  const t = await getTranslations("dashboard");
  const { id } = await params;
  const { db, account } = await requireIsvUser("merchants:read");
  const merchant = await getMerchantActivity(db, account.id, id).catch(() => null);
  const name = merchant?.merchant.application.legal_business_name as string | undefined;
  return { title: `${name ?? t("unnamed")} · ${t("merchantsTitle")}` };
}

// One merchant: its status and actions, then one tab at a time (each its own URL, ?tab=payments; the
// overview by default), each read only when shown and drawn by its sections in
// components/dashboard/merchant/: what is due (in words), payments, payouts (balance, settlements,
// payouts, reserves, statements), disputes, documents and checks, the application (masked) and device,
// settings (payment keys, the latest link, deactivation), and the event history.
export default async function MerchantPage({
  params,
  searchParams,
}: {
  params: Promise<{ id: string }>;
  searchParams: Promise<{ tab?: string }>;
}) {
  const { id } = await params;
  const asked = (await searchParams).tab;
  const tab: MerchantTab = (merchantTabs as readonly string[]).includes(asked ?? "")
    ? (asked as MerchantTab)
    : "overview";
  const shows = (tabs: MerchantTab[]) => tabs.includes(tab);
  const { db, account } = await requireIsvUser("merchants:read");
  const t = await getTranslations("dashboard");
  const tp = await getTranslations("payouts");
  const { merchant, history, latestLink } = await getMerchantActivity(db, account.id, id)
    .catch(nullIfNotFound)
    .then((found) => found ?? notFound());
  // Only what the tab shows is read.
  const scope = { isvAccountId: account.id };
  const [payments, disputes, documents, requestRows, balance, reserves] = await Promise.all([
    shows(["payments", "payouts"]) ? getMerchantPayments(db, account.id, merchant.id) : null,
    shows(["disputes"]) ? listDisputes(db, scope, { merchant_id: merchant.id, limit: 20 }).then((r) => r.rows) : [],
    shows(["documents"]) ? listMerchantFiles(db, scope, merchant.id) : [],
    // The newest ten, as the API shows them (total, pay page on the ISV's host).
    shows(["payments"])
      ? listPaymentRequests(db, scope, { merchant_id: merchant.id, limit: 10 }).then((r) => r.rows)
      : [],
    shows(["overview", "payouts"]) ? getBalance(db, scope, merchant.id).then((b) => b.balance) : null,
    shows(["payouts"]) ? listReserves(db, scope, merchant.id) : [],
  ]);
  const json = serializeMerchant(
    merchant,
    account,
    requirementsFor(merchant, account),
    await payoutSettingsOf(db, merchant.id),
  );
  const app = json.merchant as LooseJson;
  const title = (app.legal_business_name as string | null) ?? t("unnamed");
  const tabNames = Object.fromEntries(merchantTabs.map((name) => [name, t(`tabs.${name}`)])) as Record<
    MerchantTab,
    string
  >;
  const balanceCard = balance ? (
    <BalanceCard balance={balance} title={(await getTranslations("balance"))("merchantTitle")} forIsv />
  ) : null;
  return (
    <div className="space-y-6">
      <div>
        <h1 className="text-2xl font-semibold">{title}</h1>
        <p className="mt-1 flex flex-wrap items-center gap-2 text-muted">
          <StatusBadge status={merchant.status} label={t(`statusNames.${merchant.status}`)} />
          {merchant.deactivated ? <StatusBadge status="DEACTIVATED" label={t("deactivatedBadge")} /> : null}
          <span>
            <code data-testid="merchant-id">{merchant.id}</code> · {displayPhone(merchant.phone)}
          </span>
        </p>
        <div className="mt-3 flex flex-wrap items-start gap-3">
          {!isFinal(merchant.status) ? <NewLinkButton merchantId={merchant.id} /> : null}
          {merchant.status === "APPROVED" ? <OpenHomeButton merchantId={merchant.id} /> : null}
        </div>
      </div>
      <MerchantTabs merchantId={merchant.id} current={tab} label={t("tabs.label")} names={tabNames} />
      {tab === "overview" ? (
        <>
          <RequirementsSection requirements={json.requirements} app={app} />
          {balanceCard}
          <HistorySection events={history.slice(0, 5)} />
        </>
      ) : null}
      {tab === "payments" && payments ? (
        <>
          {merchant.status === "APPROVED" && !merchant.deactivated ? (
            <RequestPaymentForm
              merchantId={merchant.id}
              action={requestPaymentAction}
              types={["INVOICE", "SCAN_TO_PAY"]}
            />
          ) : null}
          <PaymentsTables
            merchantId={merchant.id}
            requests={requestRows.map((r) => ({ row: r, json: serializePaymentRequest(r, hostedBaseUrl(account)) }))}
            charges={payments.charges}
          />
        </>
      ) : null}
      {tab === "payouts" && payments ? (
        <>
          {balanceCard}
          <section aria-labelledby="schedule-title">
            <h2 id="schedule-title" className="text-lg font-semibold">
              {tp("schedule.titleIsv")}
            </h2>
            <p className="text-sm text-muted">{tp("schedule.hintIsv")}</p>
            <PayoutScheduleForm
              schedule={json.payout_schedule}
              action={merchantScheduleAction.bind(null, merchant.id)}
              voice="isv"
            />
          </section>
          <ReservesSection
            merchantId={merchant.id}
            reserves={reserves}
            canAdd={merchant.status === "APPROVED" && !merchant.deactivated}
          />
          <SettlementsTable settlements={payments.settlements} isvName={brandOf(account).display_name} />
          <PayoutsTable payouts={payments.payouts} />
          <section aria-labelledby="statements-title">
            <h2 id="statements-title" className="text-lg font-semibold">
              {t("statements")}
            </h2>
            <StatementLinks
              statements={payments.statements}
              href={(statementId) => `/dashboard/merchants/${merchant.id}/statements/${statementId}`}
            />
          </section>
        </>
      ) : null}
      {tab === "disputes" ? (
        <DisputesTable
          disputes={disputes}
          href={(d) => `/dashboard/merchants/${merchant.id}/charges/${d.chargeId}#dispute`}
        />
      ) : null}
      {tab === "documents" ? <VerificationTables checks={json.verification} documents={documents} app={app} /> : null}
      {tab === "application" ? (
        <ApplicationSection
          json={json}
          deviceName={(settingsOf(account).devices ?? []).find((d) => d.id === json.device?.catalog_id)?.name}
        />
      ) : null}
      {tab === "settings" ? (
        <SettingsSections json={json} link={latestLink} deactivated={merchant.deactivated} />
      ) : null}
      {tab === "activity" ? <HistorySection events={history} /> : null}
    </div>
  );
}
