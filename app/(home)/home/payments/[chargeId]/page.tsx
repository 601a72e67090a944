import Link from "next/link";
import { notFound } from "next/navigation";
import { getLocale, getTranslations } from "next-intl/server";
import { cache } from "react";

import { RefundForm } from "@/components/dashboard/refund-form";
import { HomeShell } from "@/components/home/home-shell";
import { ChargeDetails, paidWithText } from "@/components/payments/charge-details";
import { homeRefundAction } from "@/lib/actions/home";
import { brandOf } from "@/lib/domain/accounts/isv-facts";
import { getCharge } from "@/lib/domain/charges/find-charge";
import { awaitsAchClearing } from "@/lib/domain/charges/rules";
import { refundableAmount } from "@/lib/domain/charges/status";
import { allows } from "@/lib/domain/embed/account-sessions";
import { listRefunds } from "@/lib/domain/refunds/list-refunds";
import { nullIfNotFound } from "@/lib/errors";
import { requireMerchant } from "@/lib/home/session";
import { intlLocale } from "@/lib/i18n/locales";
import { businessName } from "@/lib/merchants/facts";
import { formatCents } from "@/lib/money";

// Once per request: the metadata and the page ask for the same charge, within the signed-in
// merchant's own payments (another merchant's charge id: not found).
const load = cache(async (chargeId: string) => {
  const { db, merchant, scope, isv, frame } = await requireMerchant({ components: ["payments"] });
  const found = await getCharge(db, scope, chargeId).catch(nullIfNotFound);
  if (!found) notFound();
  return { ...found, db, isv, scope, merchant, frame };
});

export async function generateMetadata({ params }: { params: Promise<{ chargeId: string }> }) {
  const t = await getTranslations("dashboard");
  const { charge } = await load((await params).chargeId);
  return { title: t("chargeTitle", { amount: formatCents(charge.requestedAmount, intlLocale(await getLocale())) }) };
}

// /home/payments/{charge_id}: one of the merchant's payments, its refunds, and a refund of its own.
export default async function HomeChargePage({ params }: { params: Promise<{ chargeId: string }> }) {
  const { charge, db, isv, scope, merchant, frame } = await load((await params).chargeId);
  const refunds = (await listRefunds(db, scope, { charge_id: charge.id, limit: 100 })).rows.reverse();
  const t = await getTranslations("dashboard");
  const home = await getTranslations("merchantHome");
  const locale = intlLocale(await getLocale());
  const money = (cents: number) => formatCents(cents, locale);
  const left = refundableAmount(charge);
  return (
    <HomeShell branding={brandOf(isv)} business={businessName(merchant) || merchant.id} section="payments">
      <div className="space-y-8">
        <div>
          <Link href="/home/payments" className="text-sm underline">
            {home("allPayments")}
          </Link>
          <h1 className="mt-2 text-2xl font-semibold">{t("chargeTitle", { amount: money(charge.requestedAmount) })}</h1>
        </div>
        <ChargeDetails
          charge={charge}
          refunds={refunds}
          disputeHref={(id) => `/home/disputes/${id}`}
          isvName={brandOf(isv).display_name}
        />
        {/* An embedded payments component without its refunds feature shows no refund. */}
        {frame && !allows(frame, "payments", "refunds") ? null : left > 0 ? (
          <RefundForm
            chargeId={charge.id}
            left={left}
            paidWith={await paidWithText(charge)}
            action={homeRefundAction}
          />
        ) : awaitsAchClearing(charge) ? (
          <p>{t("refundAfterClearing")}</p>
        ) : null}
      </div>
    </HomeShell>
  );
}
