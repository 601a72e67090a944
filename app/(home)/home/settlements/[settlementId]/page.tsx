import Link from "next/link";
import { notFound } from "next/navigation";
import { getFormatter, getLocale, getTranslations } from "next-intl/server";
import { cache } from "react";

import { HomeShell } from "@/components/home/home-shell";
import { paidWith } from "@/components/payments/charge-details";
import { PayoutsTable } from "@/components/payments/payouts-table";
import { DataTable } from "@/components/ui/data-table";
import { brandOf } from "@/lib/domain/accounts/isv-facts";
import { settlementWithLines } from "@/lib/domain/settlements/find-settlement";
import { nullIfNotFound } from "@/lib/errors";
import { requireMerchant } from "@/lib/home/session";
import { intlLocale } from "@/lib/i18n/locales";
import { type SummaryLine, summaryLines } from "@/lib/ledger/settlement-figures";
import { businessName } from "@/lib/merchants/facts";
import { formatCents } from "@/lib/money";

// One of the merchant's own settlements (another merchant's id: not found), once per render.
const load = cache(async (settlementId: string) => {
  const { db, merchant, scope, isv } = await requireMerchant({ components: ["payouts"] });
  const found = await settlementWithLines(db, scope, settlementId).catch(nullIfNotFound);
  if (!found) notFound();
  return { merchant, isv, ...found };
});

export async function generateMetadata({ params }: { params: Promise<{ settlementId: string }> }) {
  const t = await getTranslations("merchantHome");
  const format = await getFormatter();
  const { settlement } = await load((await params).settlementId);
  return { title: t("settlementTitle", { when: format.dateTime(settlement.createdAt, { dateStyle: "medium" }) }) };
}

// /home/settlements/{id}: a settlement line by line (each charge with its fee, each refund, ACH
// return and reversed return), and its totals that add up to what reaches the bank.
export default async function HomeSettlementPage({ params }: { params: Promise<{ settlementId: string }> }) {
  const { merchant, isv, settlement, lines, totals, payouts } = await load((await params).settlementId);
  const t = await getTranslations("merchantHome");
  const dashboard = await getTranslations("dashboard");
  const disputeWords = await getTranslations("disputes");
  const format = await getFormatter();
  const locale = intlLocale(await getLocale());
  const money = (cents: number) => formatCents(cents, locale);
  const when = (d: Date) => format.dateTime(d, { dateStyle: "medium", timeStyle: "short" });
  const isvName = brandOf(isv).display_name;
  const label: Record<SummaryLine["key"], (count: number) => string> = {
    gross: (count) => t("sumGross", { count }),
    refunds: (count) => t("sumRefunds", { count }),
    returns: (count) => t("sumReturns", { count }),
    reversals: (count) => t("sumReversals", { count }),
    fees: () => dashboard("fees"),
    platform_fees: () => t("platformFee", { isv: isvName }),
    disputes: () => disputeWords("sumDisputes"),
    disputes_won: () => disputeWords("sumDisputesWon"),
    carried_in: () => dashboard("carriedIn"),
  };
  // The settlement's summary lines (lib/ledger): they add up to its net, shown below them.
  const sum = summaryLines(totals).map(
    (l) => [label[l.key](l.count ?? 0), l.amount, `sum-${l.key.replaceAll("_", "-")}`] as const,
  );
  return (
    <HomeShell branding={brandOf(isv)} business={businessName(merchant) || merchant.id} section="payouts">
      <Link href="/home" className="text-sm underline">
        {t("backToOverview")}
      </Link>
      <h1 className="mt-2 text-2xl font-semibold">
        {t("settlementTitle", { when: format.dateTime(settlement.createdAt, { dateStyle: "medium" }) })}
      </h1>
      {settlement.net < 0 ? (
        <p className="mt-1 text-muted" data-testid="carried-forward">
          {t("carriedForward", { amount: money(-settlement.net) })}
        </p>
      ) : null}
      <section aria-labelledby="sum-title" className="mt-4 rounded-lg border border-line bg-card p-4">
        <h2 id="sum-title" className="sr-only">
          {t("sumTitle")}
        </h2>
        <dl className="grid grid-cols-[1fr_auto] gap-y-1 tabular-nums">
          {sum.map(([label, cents, id]) => (
            <div key={id} className="contents">
              <dt>{label}</dt>
              <dd className="text-right" data-testid={id}>
                {money(cents)}
              </dd>
            </div>
          ))}
          <dt className="border-t border-line pt-2 font-semibold">{t("sumNet")}</dt>
          <dd className="border-t border-line pt-2 text-right font-semibold" data-testid="sum-net">
            {money(settlement.net)}
          </dd>
        </dl>
      </section>
      {payouts.length > 0 ? (
        <div className="mt-6">
          <PayoutsTable payouts={payouts} />
        </div>
      ) : null}
      <div className="mt-6">
        <DataTable
          id="lines"
          title={t("linesTitle")}
          testId="settlement-lines"
          empty={lines.length === 0 ? t("noLines") : null}
          columns={[
            { label: dashboard("date") },
            { label: t("lineKind") },
            { label: t("linePaidWith") },
            { label: t("lineAmount"), align: "right" },
            { label: dashboard("fees"), align: "right" },
          ]}
        >
          {lines.map((line, i) => (
            <tr key={`${line.kind}-${line.chargeId}-${i}`} className="border-b border-line">
              <td className="py-2 pr-3 whitespace-nowrap">{when(line.at)}</td>
              <td className="py-2 pr-3">
                <Link href={`/home/payments/${line.chargeId}`} className="underline">
                  {t(`lineKinds.${line.kind}`, { isv: isvName })}
                </Link>
              </td>
              <td className="py-2 pr-3 whitespace-nowrap">{paidWith(line.card, dashboard("bankAccount"))}</td>
              <td className="py-2 pr-3 text-right tabular-nums">{money(line.amount)}</td>
              <td className="py-2 text-right tabular-nums">{line.fee ? money(-line.fee) : ""}</td>
            </tr>
          ))}
        </DataTable>
      </div>
    </HomeShell>
  );
}
