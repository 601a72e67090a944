import Link from "next/link";
import { getFormatter, getLocale, getTranslations } from "next-intl/server";

import { DataTable } from "@/components/ui/data-table";
import type { getMerchantPayments } from "@/lib/domain/merchants/get-merchant-payments";
import { intlLocale } from "@/lib/i18n/locales";
import { formatCents } from "@/lib/money";
import { brandName } from "@/lib/payments/brands";

type Payout = Awaited<ReturnType<typeof getMerchantPayments>>["payouts"][number];

/**
 * A merchant's payouts, newest first: what each pays, where it stands in words (why it waits, why
 * the bank refused it), the day it arrives, the settlement it pays: the ISV's dashboard and the
 * merchant's home.
 */
export async function PayoutsTable({
  payouts,
  settlementHref,
  payoutHref,
}: {
  payouts: Payout[];
  /** A payout's own page, with its lines (the merchant's home). */
  payoutHref?: (id: string) => string;
  /** A settlement's own page (the merchant's home), else its date alone. */
  settlementHref?: (id: string) => string;
}) {
  const t = await getTranslations("payouts");
  const openPayout = (await getTranslations("balance"))("openPayout");
  const format = await getFormatter();
  const locale = intlLocale(await getLocale());
  const money = (cents: number) => formatCents(cents, locale);
  const day = (iso: string) => format.dateTime(new Date(`${iso}T12:00:00Z`), { dateStyle: "medium", timeZone: "UTC" });
  return (
    <DataTable
      id="payouts"
      title={t("title")}
      testId="payouts"
      empty={payouts.length === 0 ? t("none") : null}
      columns={[
        { label: t("created") },
        { label: t("amount"), align: "right" },
        { label: t("status") },
        { label: t("arrival") },
        { label: t("bank") },
        { label: t("settlement") },
      ]}
    >
      {payouts.map((p) => (
        <tr key={p.id} className="border-b border-line align-top" data-testid={`payout-${p.id}`}>
          <td className="py-2 pr-3 whitespace-nowrap">
            {format.dateTime(p.createdAt, { dateStyle: "medium", timeStyle: "short" })}
          </td>
          <td className="py-2 pr-3 text-right tabular-nums">
            {payoutHref ? (
              <Link href={payoutHref(p.id)} className="underline" aria-label={`${money(p.amount)}: ${openPayout}`}>
                {money(p.amount)}
              </Link>
            ) : (
              money(p.amount)
            )}
          </td>
          <td className="min-w-44 py-2 pr-3">
            <span className="font-medium">{t(`statuses.${p.status}`)}</span>
            {p.heldReason ? <span className="block text-sm text-muted">{t(`held.${p.heldReason}`)}</span> : null}
            {p.failureCode ? <span className="block text-sm text-muted">{t(`failures.${p.failureCode}`)}</span> : null}
            {p.replaces ? <span className="block text-sm text-muted">{t("replaces")}</span> : null}
            {p.method === "instant" ? (
              <span className="block text-sm text-muted">{t("instantLine", { fee: money(p.fee ?? 0) })}</span>
            ) : null}
          </td>
          <td className="py-2 pr-3 whitespace-nowrap">{p.arrivalDate ? day(p.arrivalDate) : "—"}</td>
          <td className="py-2 pr-3 whitespace-nowrap">
            {p.cardLast4
              ? t("debitCard", { brand: brandName(p.cardBrand), last4: p.cardLast4 })
              : p.bankLast4
                ? t("bankAccount", { last4: p.bankLast4 })
                : "—"}
          </td>
          <td className="py-2">
            {!p.settlementId ? (
              "—"
            ) : settlementHref ? (
              <Link href={settlementHref(p.settlementId)} className="underline">
                {t("openSettlement")}
              </Link>
            ) : (
              <span className="font-mono text-xs break-all" data-id>
                {p.settlementId}
              </span>
            )}
          </td>
        </tr>
      ))}
    </DataTable>
  );
}
