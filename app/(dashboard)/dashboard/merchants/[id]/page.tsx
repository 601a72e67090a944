import Link from "next/link";
import { notFound } from "next/navigation";
import { getFormatter, getLocale, getTranslations } from "next-intl/server";

import { DataTable } from "@/components/dashboard/data-table";
import { DeactivateButton } from "@/components/dashboard/deactivate-button";
import { factRow } from "@/components/dashboard/fact-row";
import { type MerchantTab, MerchantTabs, merchantTabs } from "@/components/dashboard/merchant-tabs";
import { NewLinkButton } from "@/components/dashboard/new-link-button";
import { OpenHomeButton } from "@/components/dashboard/open-home-button";
import { RequestPaymentForm } from "@/components/dashboard/request-payment-form";
import { StatusBadge } from "@/components/dashboard/status-badge";
import { BalanceCard } from "@/components/payments/balance-card";
import { paidWith } from "@/components/payments/charge-details";
import { DisputesTable } from "@/components/payments/disputes-table";
import { PayoutsTable } from "@/components/payments/payouts-table";
import { SettlementsTable } from "@/components/payments/settlements-table";
import { StatementLinks } from "@/components/payments/statement-links";
import { requestPaymentAction } from "@/lib/actions/dashboard";
import { hostedBaseUrl } from "@/lib/branding/hosts";
import { requireIsvUser } from "@/lib/dashboard/session";
import { settingsOf } from "@/lib/domain/accounts/isv-facts";
import { getBalance } from "@/lib/domain/balance/get-balance";
import { listDisputes } from "@/lib/domain/disputes/list-disputes";
import { listMerchantFiles } from "@/lib/domain/files/create-file";
import { getMerchantActivity } from "@/lib/domain/merchants/get-merchant-activity";
import { getMerchantPayments } from "@/lib/domain/merchants/get-merchant-payments";
import { requirementsFor } from "@/lib/domain/merchants/requirements";
import { isFinal } from "@/lib/domain/merchants/status";
import { listPaymentRequests } from "@/lib/domain/payments/list-payment-requests";
import { nullIfNotFound } from "@/lib/errors";
import { displayPhone } from "@/lib/i18n/display";
import { messageOr } from "@/lib/i18n/dynamic";
import { fieldLabel } from "@/lib/i18n/field-label";
import { intlLocale } from "@/lib/i18n/locales";
import type { LooseJson } from "@/lib/loose-json";
import { formatCents } from "@/lib/money";
import { requestNames } from "@/lib/onboarding/request-names";
import type { OnboardingStatus } from "@/lib/schemas/application";
import { categoryKey } from "@/lib/schemas/product-categories";
import { ownerKeys } from "@/lib/schemas/vocabulary";
import { serializeMerchant } from "@/lib/serializers/merchant";
import { serializePaymentRequest } from "@/lib/serializers/payment-request";

export async function generateMetadata({ params }: { params: Promise<{ id: string }> }) {
  const t = await getTranslations("dashboard");
  const { id } = await params;
  const { db, account } = await requireIsvUser();
  const merchant = await getMerchantActivity(db, account.id, id).catch(() => null);
  const name = merchant?.merchant.application.legal_business_name as string | undefined;
  return { title: `${name ?? t("unnamed")} · ${t("merchantsTitle")}` };
}

type Json = LooseJson;

// A check's state in the merchant badges' colours: running amber, done green, a document needed blue, failed red.
const checkTone = {
  pending: "COMPLETED",
  verified: "APPROVED",
  requires_document: "IN_PROGRESS",
  failed: "FAILED",
} as const;

// One merchant: its status and actions, what is due (in words), the application (masked), device
// and payment keys, the latest link, payments, settlements, statements and its event history.
export default async function MerchantPage({
  params,
  searchParams,
}: {
  params: Promise<{ id: string }>;
  searchParams: Promise<{ tab?: string }>;
}) {
  const { id } = await params;
  // Each tab its own URL (?tab=payments): a page of one subject at a time, the overview by default.
  const asked = (await searchParams).tab;
  const tab: MerchantTab = (merchantTabs as readonly string[]).includes(asked ?? "")
    ? (asked as MerchantTab)
    : "overview";
  const shows = (tabs: MerchantTab[]) => tabs.includes(tab);
  const { db, account } = await requireIsvUser();
  const t = await getTranslations("dashboard");
  const root = await getTranslations();
  const format = await getFormatter();
  const {
    merchant,
    history,
    latestLink: link,
  } = await getMerchantActivity(db, account.id, id)
    .catch(nullIfNotFound)
    .then((found) => found ?? notFound());
  // Only what the tab shows is read.
  const scope = { isvAccountId: account.id };
  const [payments, disputes, documents, requestRows, balance] = await Promise.all([
    shows(["payments", "payouts"]) ? getMerchantPayments(db, account.id, merchant.id) : null,
    shows(["disputes"]) ? listDisputes(db, scope, { merchant_id: merchant.id, limit: 20 }).then((r) => r.rows) : [],
    shows(["documents"]) ? listMerchantFiles(db, scope, merchant.id) : [],
    // The newest ten, as the API shows them (total, pay page on the ISV's host).
    shows(["payments"])
      ? listPaymentRequests(db, scope, { merchant_id: merchant.id, limit: 10 }).then((r) => r.rows)
      : [],
    shows(["overview", "payouts"]) ? getBalance(db, scope, merchant.id).then((b) => b.balance) : null,
  ]);
  const requests = requestRows.map((r) => ({ row: r, json: serializePaymentRequest(r, hostedBaseUrl(account)) }));
  const locale = await getLocale();
  const money = (cents: number) => formatCents(cents, intlLocale(locale));
  const when = (d: Date) => format.dateTime(d, { dateStyle: "medium", timeStyle: "short" });
  const day = (iso: unknown) =>
    typeof iso === "string" && /^\d{4}-\d{2}-\d{2}$/.test(iso)
      ? format.dateTime(new Date(`${iso}T00:00:00Z`), { dateStyle: "long", timeZone: "UTC" })
      : "";
  // An event in words ("Information updated"), never its type; an unknown type in the reader's words too.
  const eventName = (type: string) => messageOr(t, `eventNames.${type.replace(".", "__")}`) ?? t("eventOther");
  const requirements = requirementsFor(merchant, account);
  const json = serializeMerchant(merchant, account, requirements);
  const app = json.merchant as Json;
  const option = (field: string, value: unknown) =>
    (typeof value === "string" ? messageOr(root, `options.${field}.${value}`) : null) ?? (value as string | null) ?? "";
  const address = (a: Json | null | undefined) => (a ? `${a.address}, ${a.city}, ${a.state} ${a.zip}` : "");
  const owners = ownerKeys.filter((k) => app[k]).map((k) => app[k] as Json);
  const catalog = (settingsOf(account).devices ?? []).find((d) => d.id === json.device?.catalog_id);
  const row = factRow;
  const names = requestNames(app);
  // A reason in the reader's words by its code (with whom it names), an operator's own as written.
  const reasonText = (field: string, code: string | null, message: string | null) =>
    (code ? messageOr(root, `underwriting.${code}`, names(field)) : null) ?? message ?? "";
  const subjectName = (subject: string) =>
    subject === "merchant" ? t("checks.subjectBusiness") : names(`${subject}.`).name || fieldLabel(root, subject);
  const fileById = new Map(documents.map((f) => [f.id, f]));
  const title = (app.legal_business_name as string | null) ?? t("unnamed");
  const tabNames = Object.fromEntries(merchantTabs.map((name) => [name, t(`tabs.${name}`)])) as Record<
    MerchantTab,
    string
  >;
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
      {shows(["overview"]) ? (
        <>
          <section aria-labelledby="requirements-title">
            <h2 id="requirements-title" className="text-lg font-semibold">
              {t("requirements")}
            </h2>
            {requirements.currently_due.length === 0 ? (
              <p>{t("nothingDue")}</p>
            ) : (
              <ul className="list-disc pl-5" data-testid="requirements">
                {requirements.currently_due.map((f) => {
                  const error = requirements.errors.find((e) => e.field === f);
                  const reason = error ? reasonText(f, error.code, error.message) : null;
                  return (
                    <li key={f}>
                      {fieldLabel(root, f)}
                      {reason ? <span className="text-muted"> · {reason}</span> : null}
                    </li>
                  );
                })}
              </ul>
            )}
          </section>
        </>
      ) : null}
      {shows(["documents"]) ? (
        <>
          <DataTable
            id="checks"
            title={t("checks.title")}
            testId="checks"
            empty={json.verification.length === 0 ? t("checks.none") : null}
            columns={[
              { label: t("checks.check") },
              { label: t("checks.subject") },
              { label: t("checks.state") },
              { label: t("checks.reason") },
              { label: t("checks.document") },
            ]}
          >
            {json.verification.map((c) => {
              const file = c.document_file_id ? fileById.get(c.document_file_id) : undefined;
              const field = c.subject === "merchant" ? "merchant" : `${c.subject}.`;
              return (
                <tr key={`${c.type}-${c.subject}`} className="border-b border-line align-top">
                  <td className="py-2 pr-3">{t(`checks.type.${c.type}`)}</td>
                  <td className="py-2 pr-3">{subjectName(c.subject)}</td>
                  <td className="py-2 pr-3">
                    <StatusBadge status={checkTone[c.status]} label={t(`checks.status.${c.status}`)} />
                  </td>
                  <td className="py-2 pr-3">{c.status === "verified" ? "" : reasonText(field, c.code, c.message)}</td>
                  <td className="py-2">
                    {file ? (
                      <a className="underline" href={`/dashboard/files/${file.id}`}>
                        {file.filename}
                      </a>
                    ) : null}
                  </td>
                </tr>
              );
            })}
          </DataTable>
        </>
      ) : null}
      {shows(["documents"]) ? (
        <>
          <DataTable
            id="documents"
            title={t("checks.documents")}
            testId="documents"
            empty={documents.length === 0 ? t("checks.noDocuments") : null}
            columns={[{ label: t("checks.document") }, { label: t("checks.subject") }, { label: t("checks.uploaded") }]}
          >
            {documents.map((f) => (
              <tr key={f.id} className="border-b border-line">
                <td className="py-2 pr-3">
                  <a className="underline" href={`/dashboard/files/${f.id}`}>
                    {t("checks.download")}: {f.filename}
                  </a>{" "}
                  <span className="text-muted">· {messageOr(t, `checks.purpose.${f.purpose}`) ?? f.purpose}</span>
                </td>
                <td className="py-2 pr-3">{f.subject ? subjectName(f.subject) : t("checks.subjectBusiness")}</td>
                <td className="py-2">{when(f.createdAt)}</td>
              </tr>
            ))}
          </DataTable>
        </>
      ) : null}
      {shows(["application"]) ? (
        <>
          <section aria-labelledby="application-title">
            <h2 id="application-title" className="text-lg font-semibold">
              {t("application")}
            </h2>
            <dl className="mt-2 space-y-1" data-testid="application">
              {row(root("fields.legal_business_name"), app.legal_business_name)}
              {row(root("fields.doing_business_as"), app.doing_business_as)}
              {row(root("fields.business_type"), option("business_type", app.business_type))}
              {row(root("fields.tin"), app.tin ? `${app.tin_type ?? ""} ${app.tin}`.trim() : null)}
              {row(root("fields.business_established_date"), day(app.business_established_date))}
              {row(root("fields.legal_phone"), displayPhone(app.legal_phone))}
              {row(root("fields.legal_business_address"), address(app.legal_business_address))}
              {owners.map((o, i) =>
                row(
                  root("fields.ownerHeading", { n: i + 1 }),
                  `${o.first_name ?? ""} ${o.last_name ?? ""} · ${option("job_title", o.job_title)} · ${o.ownership_percentage ?? "?"} %`,
                ),
              )}
              {row(
                root("wizard.steps.bank"),
                app.bank_account
                  ? [app.bank_account.bank_name, app.bank_account.routing_number, app.bank_account.account_number]
                      .filter(Boolean)
                      .join(" · ")
                  : null,
                "bank",
              )}
              {row(
                root("fields.product.category"),
                app.main_product
                  ? [
                      app.main_product.category &&
                        (messageOr(root, `options.category.${categoryKey(app.main_product.category)}`) ??
                          app.main_product.category),
                      app.main_product.subcategory &&
                        (messageOr(root, `subcategories.${categoryKey(app.main_product.subcategory)}`) ??
                          app.main_product.subcategory),
                    ]
                      .filter(Boolean)
                      .join(" › ")
                  : null,
              )}
              {row(
                root("fields.main_contact_person"),
                app.main_contact_person ? `${app.main_contact_person.name} · ${app.main_contact_person.email}` : null,
              )}
            </dl>
            {!app.legal_business_name && !app.bank_account && owners.length === 0 ? (
              <p>{t("applicationEmpty")}</p>
            ) : null}
          </section>
        </>
      ) : null}
      {shows(["application"]) ? (
        <>
          <section aria-labelledby="device-title">
            <h2 id="device-title" className="text-lg font-semibold">
              {root("wizard.steps.device")}
            </h2>
            <p data-testid="device">
              {json.device_selection === "skipped"
                ? t("deviceSkipped")
                : json.device
                  ? [
                      catalog?.name ?? json.device.catalog_id,
                      json.device.imei ? `IMEI ${json.device.imei}` : null,
                      t(`imeiStatus.${json.device.imei_status}`),
                    ]
                      .filter(Boolean)
                      .join(" · ")
                  : t("deviceNone")}
            </p>
          </section>
        </>
      ) : null}
      {shows(["settings"]) ? (
        <>
          {json.payment_keys.gateway_merchant_id || json.payment.terminal_id ? (
            <section aria-labelledby="keys-title">
              <h2 id="keys-title" className="text-lg font-semibold">
                {t("paymentKeys")}
              </h2>
              <dl className="mt-2 space-y-1 font-mono text-sm" data-testid="payment-keys">
                {row(t("gatewayMerchantId"), json.payment_keys.gateway_merchant_id)}
                {row(t("publishableKey"), json.payment.tokenizer_publishable_key)}
                {row(t("merchantApiKey"), json.payment_keys.api_key)}
                {row(t("terminalId"), json.payment.terminal_id)}
                {json.payment_keys.processors.map((p) =>
                  row(p.processor_type === "ACH" ? t("processorAch") : t("processorCard"), p.id),
                )}
              </dl>
            </section>
          ) : null}
        </>
      ) : null}
      {shows(["settings"]) ? (
        <>
          <section aria-labelledby="link-title">
            <h2 id="link-title" className="text-lg font-semibold">
              {t("latestLink")}
            </h2>
            {link ? (
              <p>
                <code>{link.id}</code> ·{" "}
                {t("linkCreated", {
                  created: format.dateTime(link.createdAt, { dateStyle: "medium", timeStyle: "short" }),
                  expires: format.dateTime(link.expiresAt, { dateStyle: "medium", timeStyle: "short" }),
                })}
                {link.supersededAt ? ` (${t("linkSuperseded")})` : ""}
              </p>
            ) : (
              <p>{t("noLink")}</p>
            )}
          </section>
        </>
      ) : null}
      {shows(["payments"]) ? (
        <>
          {merchant.status === "APPROVED" && !merchant.deactivated ? (
            <RequestPaymentForm
              merchantId={merchant.id}
              action={requestPaymentAction}
              types={["INVOICE", "SCAN_TO_PAY"]}
            />
          ) : null}
        </>
      ) : null}
      {shows(["payments"]) ? (
        <>
          <DataTable
            id="requests"
            title={t("requestsTitle")}
            testId="requests"
            empty={requests.length === 0 ? t("noRequests") : null}
            columns={[
              { label: t("date") },
              { label: t("type") },
              { label: t("amount"), align: "right" },
              { label: t("status") },
              { label: t("payPage") },
            ]}
          >
            {requests.map(({ row: r, json: shown }) => (
              <tr key={r.id} className="border-b border-line" data-request={r.id}>
                <td className="py-2 pr-3 whitespace-nowrap">{when(r.createdAt)}</td>
                <td className="py-2 pr-3">{t(`paymentTypes.${r.paymentType}`)}</td>
                <td className="py-2 pr-3 text-right tabular-nums">{money(shown.total)}</td>
                <td className="py-2 pr-3">{t(`requestStatus.${r.status}`)}</td>
                <td className="py-2">
                  {r.status === "PENDING" ? (
                    <a
                      href={shown.pay_url}
                      className="underline"
                      aria-label={t("openPayPage", { amount: money(shown.total) })}
                    >
                      {t("payPage")}
                    </a>
                  ) : (
                    "—"
                  )}
                </td>
              </tr>
            ))}
          </DataTable>
        </>
      ) : null}
      {shows(["payments"]) && payments ? (
        <>
          <DataTable
            id="payments"
            title={t("payments")}
            testId="payments"
            empty={payments.charges.length === 0 ? t("noPayments") : null}
            columns={[
              { label: t("date") },
              { label: t("amount"), align: "right" },
              { label: t("card") },
              { label: t("status") },
              { label: t("fee"), align: "right" },
              { label: t("refunded"), align: "right" },
              { label: t("details") },
            ]}
          >
            {payments.charges.map((c) => (
              <tr key={c.id} className="border-b border-line align-top" data-charge={c.id}>
                <td className="py-2 pr-3 whitespace-nowrap">{when(c.createdAt)}</td>
                <td className="py-2 pr-3 text-right tabular-nums">{money(c.requestedAmount)}</td>
                <td className="py-2 pr-3 whitespace-nowrap">{paidWith(c, t("bankAccount"))}</td>
                <td className="py-2 pr-3">{t(`chargeStatus.${c.status}`)}</td>
                <td className="py-2 pr-3 text-right tabular-nums">{c.fee === null ? "—" : money(c.fee)}</td>
                <td className="py-2 pr-3 text-right tabular-nums" data-testid="refunded">
                  {money(c.amountRefunded)}
                </td>
                <td className="py-2">
                  <Link
                    href={`/dashboard/merchants/${merchant.id}/charges/${c.id}`}
                    className="underline"
                    aria-label={t("detailsOf", { amount: money(c.requestedAmount), date: when(c.createdAt) })}
                  >
                    {t("details")}
                  </Link>
                </td>
              </tr>
            ))}
          </DataTable>
        </>
      ) : null}
      {shows(["overview", "payouts"]) && balance ? (
        <>
          <BalanceCard balance={balance} title={(await getTranslations("balance"))("merchantTitle")} />
        </>
      ) : null}
      {shows(["payouts"]) && payments ? (
        <>
          <SettlementsTable settlements={payments.settlements} />
        </>
      ) : null}
      {shows(["payouts"]) && payments ? (
        <>
          <PayoutsTable payouts={payments.payouts} />
        </>
      ) : null}
      {shows(["disputes"]) ? (
        <>
          <DisputesTable
            disputes={disputes}
            href={(d) => `/dashboard/merchants/${merchant.id}/charges/${d.chargeId}#dispute`}
          />
        </>
      ) : null}
      {shows(["payouts"]) && payments ? (
        <>
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
      {shows(["overview", "activity"]) ? (
        <>
          <section>
            <h2 className="text-lg font-semibold">{t("history")}</h2>
            <ol className="mt-2 space-y-1">
              {(tab === "activity" ? history : history.slice(0, 5)).map((e) => (
                <li key={e.id}>
                  <span className="text-muted">
                    {format.dateTime(e.createdAt, { dateStyle: "medium", timeStyle: "short" })}
                  </span>{" "}
                  · {eventName(e.type)} ·{" "}
                  {t(`statusNames.${(e.data as { lead_onboarding_status: OnboardingStatus }).lead_onboarding_status}`)}
                </li>
              ))}
            </ol>
          </section>
        </>
      ) : null}
      {shows(["settings"]) ? (
        <>
          {/* What cannot be undone lightly comes last, behind its own confirmation. */}
          <section aria-labelledby="danger-title" className="rounded-lg border border-red-200 p-4">
            <h2 id="danger-title" className="text-lg font-semibold">
              {t("dangerZone")}
            </h2>
            <p className="mt-1 text-sm text-muted">{t("dangerZoneNote")}</p>
            <DeactivateButton merchantId={merchant.id} deactivated={merchant.deactivated} />
          </section>
        </>
      ) : null}
    </div>
  );
}
