import Link from "next/link";
import { getFormatter, getLocale, getTranslations } from "next-intl/server";

import { HomeShell } from "@/components/home/home-shell";
import { LivePayments } from "@/components/home/live-payments";
import { NextPayoutCard } from "@/components/home/next-payout";
import { RiskBanner } from "@/components/home/risk-banner";
import { BalanceCard } from "@/components/payments/balance-card";
import { PaymentsTable } from "@/components/payments/payments-table";
import { PayoutsTable } from "@/components/payments/payouts-table";
import { SettlementsTable } from "@/components/payments/settlements-table";
import { StatementLinks } from "@/components/payments/statement-links";
import { brandOf } from "@/lib/domain/accounts/isv-facts";
import { getBalance } from "@/lib/domain/balance/get-balance";
import { listDisputes } from "@/lib/domain/disputes/list-disputes";
import { daysToRespond } from "@/lib/domain/disputes/rules";
import { homeAttention, homeOverview, recentPaymentsSignature } from "@/lib/domain/home/overview";
import { homePayoutFacts } from "@/lib/domain/home/payouts";
import { openAlertsOf } from "@/lib/domain/risk/risk-alerts";
import { requireMerchant } from "@/lib/home/session";
import { intlLocale } from "@/lib/i18n/locales";
import { businessName } from "@/lib/merchants/facts";
import { formatCents } from "@/lib/money";

export async function generateMetadata() {
  const t = await getTranslations("merchantHome");
  return { title: t("title") };
}

// /home: the approved merchant's overview (docs/reference.md section 15), on its ISV's brand: what
// it took today and this month, the next settlement, anything due, its latest payments.
export default async function HomeOverview() {
  const { db, merchant, scope, isv } = await requireMerchant();
  const t = await getTranslations("merchantHome");
  const dashboard = await getTranslations("dashboard");
  const payoutWords = await getTranslations("payouts");
  const format = await getFormatter();
  const locale = intlLocale(await getLocale());
  const money = (cents: number) => formatCents(cents, locale);
  const [overview, signature, open] = await Promise.all([
    homeOverview(db, merchant),
    recentPaymentsSignature(db, merchant.id),
    listDisputes(db, scope, { status: "needs_response", limit: 10 }),
  ]);
  const disputeWords = await getTranslations("disputes");
  const now = new Date();
  const attention = homeAttention(merchant, isv);
  const name = businessName(merchant) || merchant.id;
  const brand = brandOf(isv);
  const figure = (label: string, amount: number, count: number, testId: string) => (
    <div className="rounded-lg border border-line bg-card p-4" data-testid={testId}>
      <p className="text-sm text-muted">{label}</p>
      <p className="mt-1 text-2xl font-semibold">{money(amount)}</p>
      <p className="text-sm text-muted">{dashboard("paymentCount", { count })}</p>
    </div>
  );
  return (
    <HomeShell branding={brand} business={name} section="overview">
      <LivePayments signature={signature} />
      <h1 className="text-2xl font-semibold">{t("overview")}</h1>
      <RiskBanner alerts={await openAlertsOf(db, merchant.id)} isvName={brand.display_name} />
      {attention.map((a) => (
        <div
          key={a.kind}
          role="note"
          className="mt-4 rounded-lg border-2 border-primary bg-card p-4"
          data-testid={`due-${a.kind}`}
        >
          <p>
            {a.kind === "payout_failed"
              ? payoutWords("failedBanner", { amount: money(overview.failedPayout?.amount ?? 0) })
              : a.kind === "bank_account"
                ? t("dueBank")
                : t("due", { name: brand.display_name })}
          </p>
          <Link href={a.href} className="mt-2 inline-block font-semibold underline">
            {a.kind === "payout_failed"
              ? payoutWords("failedAction")
              : a.kind === "bank_account"
                ? t("dueBankAction")
                : t("dueAction")}
          </Link>
        </div>
      ))}
      {/* Each dispute waiting for an answer, the nearest deadline first. */}
      {[...open.rows]
        .sort((a, b) => a.evidenceDueBy.getTime() - b.evidenceDueBy.getTime())
        .map((d) => (
          <div
            key={d.id}
            role="note"
            className="mt-4 rounded-lg border-2 border-primary bg-card p-4"
            data-testid="due-dispute"
          >
            <p>
              {disputeWords("banner", {
                amount: money(d.amount),
                respond: disputeWords("respondWithin", { days: daysToRespond(d.evidenceDueBy, now) }),
              })}
            </p>
            <Link href={`/home/disputes/${d.id}`} className="mt-2 inline-block font-semibold underline">
              {disputeWords("bannerAction")}
            </Link>
          </div>
        ))}
      <div className="mt-4 grid gap-3 sm:grid-cols-2 lg:grid-cols-4">
        {figure(t("today"), overview.today.amount, overview.today.count, "today")}
        {figure(t("thisMonth"), overview.month.amount, overview.month.count, "month")}
        <div className="rounded-lg border border-line bg-card p-4" data-testid="next-settlement">
          <p className="text-sm text-muted">{t("nextSettlement")}</p>
          <p className="mt-1 text-2xl font-semibold">{money(overview.nextSettlement.amount)}</p>
          <p className="text-sm text-muted">
            {t("nextSettlementAt", {
              when: format.dateTime(overview.nextSettlement.at, {
                dateStyle: "medium",
                timeStyle: "short",
                timeZone: "UTC",
              }),
              count: overview.nextSettlement.count,
            })}
          </p>
          {overview.nextSettlement.carried < 0 ? (
            <p className="text-sm font-medium" data-testid="next-settlement-carried">
              {t("nextSettlementCarried", { amount: money(-overview.nextSettlement.carried) })}
            </p>
          ) : null}
          {overview.nextSettlement.disputes !== 0 ? (
            <p className="text-sm font-medium" data-testid="next-settlement-disputes">
              {overview.nextSettlement.disputes > 0
                ? disputeWords("nextSettlementLess", { amount: money(overview.nextSettlement.disputes) })
                : disputeWords("nextSettlementBack", { amount: money(-overview.nextSettlement.disputes) })}
            </p>
          ) : null}
        </div>
        <NextPayoutCard next={overview.nextPayout} waiting={await homePayoutFacts(db, merchant, isv)} />
      </div>
      <BalanceCard balance={(await getBalance(db, scope)).balance} className="mt-4" />
      <p className="mt-2 text-sm text-muted">{t("utcNote")}</p>
      <section aria-labelledby="recent-title" className="mt-6">
        <div className="flex flex-wrap items-baseline justify-between gap-2">
          <h2 id="recent-title" className="text-lg font-semibold">
            {t("recent")}
          </h2>
          <Link href="/home/payments" className="underline">
            {t("allPayments")}
          </Link>
        </div>
        {overview.recent.length === 0 ? (
          <p className="mt-2">{t("noPayments")}</p>
        ) : (
          <PaymentsTable charges={overview.recent} labelledBy="recent-title" testId="recent-payments" />
        )}
      </section>
      <div className="mt-6">
        <SettlementsTable
          settlements={overview.settlements}
          isvName={brand.display_name}
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
      <section aria-labelledby="statements-title" className="mt-6">
        <h2 id="statements-title" className="text-lg font-semibold">
          {dashboard("statements")}
        </h2>
        <StatementLinks statements={overview.statements} href={(id) => `/home/statements/${id}`} />
      </section>
    </HomeShell>
  );
}
