import Link from "next/link";
import { notFound } from "next/navigation";
import { getLocale, getTranslations } from "next-intl/server";
import { cache } from "react";

import { RefundForm } from "@/components/dashboard/refund-form";
import { ChargeDetails, paidWithText } from "@/components/payments/charge-details";
import { DisputeSummary } from "@/components/payments/dispute-summary";
import { requireIsvUser } from "@/lib/dashboard/session";
import { brandOf } from "@/lib/domain/accounts/isv-facts";
import { getCharge } from "@/lib/domain/charges/find-charge";
import { awaitsAchClearing } from "@/lib/domain/charges/rules";
import { refundableAmount } from "@/lib/domain/charges/status";
import { findDispute } from "@/lib/domain/disputes/find-dispute";
import { listRefunds } from "@/lib/domain/refunds/list-refunds";
import { nullIfNotFound } from "@/lib/errors";
import { intlLocale } from "@/lib/i18n/locales";
import { formatCents } from "@/lib/money";

// Once per request: the metadata and the page ask for the same charge.
const load = cache(async (merchantId: string, chargeId: string) => {
  const { db, account } = await requireIsvUser("payments:read");
  const found = await getCharge(db, { isvAccountId: account.id }, chargeId).catch(nullIfNotFound);
  // Another ISV's charge, or a charge of another merchant under this URL: not found.
  if (!found || found.charge.merchantId !== merchantId) notFound();
  return { ...found, db, account };
});

export async function generateMetadata({ params }: { params: Promise<{ id: string; chargeId: string }> }) {
  const t = await getTranslations("dashboard");
  const locale = await getLocale();
  const { id, chargeId } = await params;
  const { charge } = await load(id, chargeId);
  return { title: t("chargeTitle", { amount: formatCents(charge.requestedAmount, intlLocale(locale)) }) };
}

// One payment: what was paid, with what, its fee and what reached the merchant, its timeline, its
// refunds, and a refund (amount and reason, confirmed before it is sent).
export default async function ChargePage({ params }: { params: Promise<{ id: string; chargeId: string }> }) {
  const { id, chargeId } = await params;
  const { charge, merchant, db, account } = await load(id, chargeId);
  // Its refunds with their reasons, oldest first (a charge has at most a few hundred).
  const refunds = (
    await listRefunds(db, { isvAccountId: account.id }, { charge_id: charge.id, limit: 100 })
  ).rows.reverse();
  const t = await getTranslations("dashboard");
  const locale = await getLocale();
  const money = (cents: number) => formatCents(cents, intlLocale(locale));
  const paidWith = await paidWithText(charge);
  const left = refundableAmount(charge);
  const name = (merchant.application as { legal_business_name?: string }).legal_business_name ?? t("unnamed");
  return (
    <div className="space-y-8">
      <div>
        <Link href={`/dashboard/merchants/${merchant.id}?tab=payments`} className="text-sm underline">
          {t("backToMerchant", { name })}
        </Link>
        <h1 className="mt-2 text-2xl font-semibold">{t("chargeTitle", { amount: money(charge.requestedAmount) })}</h1>
      </div>
      <ChargeDetails
        charge={charge}
        refunds={refunds}
        disputeHref={() => "#dispute"}
        isvName={brandOf(account).display_name}
        forIsv
      />
      {charge.disputeId ? (
        <DisputeSummary dispute={await findDispute(db, { isvAccountId: account.id }, charge.disputeId)} />
      ) : null}
      {left > 0 ? (
        <RefundForm chargeId={charge.id} left={left} paidWith={paidWith} />
      ) : awaitsAchClearing(charge) ? (
        <p>{t("refundAfterClearing")}</p>
      ) : null}
    </div>
  );
}
