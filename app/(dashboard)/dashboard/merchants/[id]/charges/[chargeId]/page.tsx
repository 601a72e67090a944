import Link from "next/link";
import { notFound } from "next/navigation";
import { getFormatter, getLocale, getTranslations } from "next-intl/server";
import { cache } from "react";

import { DataTable } from "@/components/dashboard/data-table";
import { factRow } from "@/components/dashboard/fact-row";
import { RefundForm } from "@/components/dashboard/refund-form";
import { requireIsvUser } from "@/lib/dashboard/session";
import { getCharge } from "@/lib/domain/charges/find-charge";
import { awaitsAchClearing } from "@/lib/domain/charges/rules";
import { refundableAmount } from "@/lib/domain/charges/status";
import { listRefunds } from "@/lib/domain/refunds/list-refunds";
import { AppError } from "@/lib/errors";
import { intlLocale } from "@/lib/i18n/locales";
import { formatCents } from "@/lib/money";
import { brandName } from "@/lib/payments/brands";

// Once per request: the metadata and the page ask for the same charge.
const load = cache(async (merchantId: string, chargeId: string) => {
  const { db, account } = await requireIsvUser();
  const found = await getCharge(db, { isvAccountId: account.id }, chargeId).catch((e) => {
    if (e instanceof AppError && e.type === "not_found_error") return null;
    throw e;
  });
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
  const format = await getFormatter();
  const locale = await getLocale();
  const money = (cents: number) => formatCents(cents, intlLocale(locale));
  const when = (d: Date | null) => (d ? format.dateTime(d, { dateStyle: "medium", timeStyle: "short" }) : null);
  const paidWith =
    charge.paymentMethod === "ach"
      ? `${charge.ach?.bank_name ?? t("bankAccount")} (ACH) •••• ${charge.ach?.last4 ?? ""}`
      : `${brandName(charge.cardBrand)} •••• ${charge.cardLast4 ?? ""}`;
  const left = refundableAmount(charge);
  const name = (merchant.application as { legal_business_name?: string }).legal_business_name ?? t("unnamed");
  const row = factRow;
  const timeline: [string, Date | null][] = [
    [t("timeline.authorized"), charge.authorizedAt],
    [t("timeline.settled"), charge.settledAt],
    [t("timeline.returned"), charge.returnedAt],
    [t("timeline.returnReversed"), charge.returnReversedAt],
  ];
  return (
    <div className="space-y-8">
      <div>
        <Link href={`/dashboard/merchants/${merchant.id}`} className="text-sm underline">
          {t("backToMerchant", { name })}
        </Link>
        <h1 className="mt-2 text-2xl font-semibold">{t("chargeTitle", { amount: money(charge.requestedAmount) })}</h1>
      </div>
      <section aria-labelledby="charge-facts">
        <h2 id="charge-facts" className="sr-only">
          {t("chargeDetails")}
        </h2>
        <dl className="space-y-1" data-testid="charge-facts">
          {row(t("status"), t(`chargeStatus.${charge.status}` as never))}
          {row(t("date"), when(charge.createdAt))}
          {row(t("card"), paidWith)}
          {row(t("fee"), charge.fee === null ? null : money(charge.fee))}
          {row(t("netToMerchant"), charge.net === null ? null : money(charge.net))}
          {row(t("refunded"), money(charge.amountRefunded))}
          {row(t("declineReason"), charge.failureReason)}
          {row(t("receiptNumber"), charge.receiptNumber)}
          {row(t("chargeId"), charge.id)}
        </dl>
      </section>
      <section aria-labelledby="timeline-title">
        <h2 id="timeline-title" className="text-lg font-semibold">
          {t("timelineTitle")}
        </h2>
        <ol className="mt-2 space-y-1">
          {timeline
            .filter(([, at]) => at)
            .map(([label, at]) => (
              <li key={label}>
                <span className="text-muted">{when(at)}</span> · {label}
              </li>
            ))}
          {refunds.map((r) => (
            <li key={r.id}>
              <span className="text-muted">{when(r.createdAt)}</span> ·{" "}
              {t("timeline.refunded", { amount: money(r.amount) })}
            </li>
          ))}
        </ol>
      </section>
      <DataTable
        id="refunds"
        title={t("refundsTitle")}
        testId="refunds"
        empty={refunds.length === 0 ? t("noRefunds") : null}
        columns={[{ label: t("date") }, { label: t("amount"), align: "right" }, { label: t("refundReasonLabel") }]}
      >
        {refunds.map((r) => (
          <tr key={r.id} className="border-b border-line">
            <td className="py-2 pr-3 whitespace-nowrap">{when(r.createdAt)}</td>
            <td className="py-2 pr-3 text-right tabular-nums">{money(r.amount)}</td>
            <td className="py-2">{r.reason ? t(`refundReasons.${r.reason}` as never) : "—"}</td>
          </tr>
        ))}
      </DataTable>
      {left > 0 ? (
        <RefundForm chargeId={charge.id} left={left} paidWith={paidWith} />
      ) : awaitsAchClearing(charge) ? (
        <p>{t("refundAfterClearing")}</p>
      ) : null}
    </div>
  );
}
