import Link from "next/link";
import { notFound } from "next/navigation";
import { getFormatter, getLocale, getTranslations } from "next-intl/server";
import { cache } from "react";

import { HomeShell } from "@/components/home/home-shell";
import { paidWith } from "@/components/payments/charge-details";
import { DataTable } from "@/components/ui/data-table";
import { brandOf } from "@/lib/domain/accounts/isv-facts";
import { payoutWithLines } from "@/lib/domain/balance/payout-lines";
import { nullIfNotFound } from "@/lib/errors";
import { requireMerchant } from "@/lib/home/session";
import { intlLocale } from "@/lib/i18n/locales";
import { businessName } from "@/lib/merchants/facts";
import { formatCents } from "@/lib/money";

// One of the merchant's own payouts (another merchant's id: not found), once per render.
const load = cache(async (payoutId: string) => {
  const { db, merchant, scope, isv } = await requireMerchant({ components: ["payouts"] });
  const found = await payoutWithLines(db, scope, payoutId).catch(nullIfNotFound);
  if (!found) notFound();
  return { merchant, isv, ...found };
});

export async function generateMetadata({ params }: { params: Promise<{ payoutId: string }> }) {
  const t = await getTranslations("balance");
  const locale = intlLocale(await getLocale());
  const { payout } = await load((await params).payoutId);
  return { title: t("payoutTitle", { amount: formatCents(payout.amount, locale) }) };
}

/** Where a line comes from: the payment's or the dispute's own page. */
const sourceHref = (type: string, source: string) =>
  source.startsWith("ch_") ? `/home/payments/${source}` : source.startsWith("dp_") ? `/home/disputes/${source}` : null;

// /home/payouts/{id}: a payout line by line, from the ledger: every payment (less its fee), refund,
// return and dispute it pays out, adding up to what reaches the bank.
export default async function HomePayoutPage({ params }: { params: Promise<{ payoutId: string }> }) {
  const { merchant, isv, payout, lines, totals, paidWith: methods } = await load((await params).payoutId);
  const t = await getTranslations("balance");
  const payoutWords = await getTranslations("payouts");
  const bankAccount = (await getTranslations("dashboard"))("bankAccount");
  const format = await getFormatter();
  const locale = intlLocale(await getLocale());
  const money = (cents: number) => formatCents(cents, locale);
  const day = (iso: string) => format.dateTime(new Date(`${iso}T12:00:00Z`), { dateStyle: "medium", timeZone: "UTC" });
  return (
    <HomeShell branding={brandOf(isv)} business={businessName(merchant) || merchant.id} section="payouts">
      <Link href="/home/payouts" className="text-sm underline">
        {t("backToPayouts")}
      </Link>
      <h1 className="mt-2 text-2xl font-semibold">{t("payoutTitle", { amount: money(payout.amount) })}</h1>
      <p className="mt-1 text-muted" data-testid="payout-status">
        {payoutWords(`statuses.${payout.status}`)}
        {payout.heldReason ? ` · ${payoutWords(`held.${payout.heldReason}`)}` : ""}
        {payout.failureCode ? ` · ${payoutWords(`failures.${payout.failureCode}`)}` : ""}
        {payout.arrivalDate ? ` · ${payoutWords("nextArrives", { date: day(payout.arrivalDate) })}` : ""}
        {payout.bankLast4 ? ` · ${payoutWords("bankAccount", { last4: payout.bankLast4 })}` : ""}
      </p>
      <div className="mt-6">
        <DataTable
          id="payout-lines"
          title={t("linesTitle")}
          testId="payout-lines"
          empty={lines.length === 0 ? t("noLines") : null}
          columns={[
            { label: t("date") },
            { label: t("what") },
            { label: t("amount"), align: "right", wide: true },
            { label: t("fee"), align: "right", wide: true },
            { label: t("net"), align: "right" },
          ]}
        >
          {lines.map((line) => {
            const href = sourceHref(line.type, line.sourceId);
            const method = methods.get(line.sourceId);
            // "Payment · Visa •••• 4242": which payment, as the merchant's payments list says it.
            const words = `${t(`types.${line.type}`, { isv: brandOf(isv).display_name })}${method ? ` · ${paidWith(method, bankAccount)}` : ""}`;
            return (
              <tr key={line.id} className="border-b border-line" data-testid={`line-${line.type}`}>
                <td className="py-2 pr-3 whitespace-nowrap">
                  {format.dateTime(line.createdAt, { dateStyle: "medium", timeStyle: "short" })}
                </td>
                <td className="py-2 pr-3">
                  {href ? (
                    <Link href={href} className="underline">
                      {words}
                    </Link>
                  ) : (
                    words
                  )}
                </td>
                <td className="hidden py-2 pr-3 text-right tabular-nums sm:table-cell">{money(line.amount)}</td>
                <td className="hidden py-2 pr-3 text-right tabular-nums sm:table-cell">
                  {line.fee ? money(-line.fee) : ""}
                </td>
                <td className="py-2 text-right tabular-nums" data-testid="line-net">
                  {money(line.net)}
                </td>
              </tr>
            );
          })}
          <tr className="font-semibold">
            <td className="pt-2 pr-3" colSpan={2}>
              {t("total")}
            </td>
            <td className="hidden pt-2 pr-3 text-right tabular-nums sm:table-cell">{money(totals.amount)}</td>
            <td className="hidden pt-2 pr-3 text-right tabular-nums sm:table-cell">
              {totals.fee ? money(-totals.fee) : ""}
            </td>
            <td className="pt-2 text-right tabular-nums" data-testid="lines-total">
              {money(totals.net)}
            </td>
          </tr>
        </DataTable>
      </div>
      <p className="mt-3 text-sm text-muted" data-testid="lines-add-up">
        {totals.net === payout.amount ? t("addsUp", { amount: money(payout.amount) }) : t("noLinesYet")}
      </p>
    </HomeShell>
  );
}
