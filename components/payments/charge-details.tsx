import { getFormatter, getLocale, getTranslations } from "next-intl/server";

import { DataTable } from "@/components/ui/data-table";
import { factRow } from "@/components/ui/fact-row";
import type { getCharge } from "@/lib/domain/charges/find-charge";
import type { listRefunds } from "@/lib/domain/refunds/list-refunds";
import { enumLabel, messageOr } from "@/lib/i18n/dynamic";
import { intlLocale } from "@/lib/i18n/locales";
import { formatCents } from "@/lib/money";
import { brandName } from "@/lib/payments/brands";

import { shownStatusText } from "./shown-status";
import { timelineOf } from "./timeline";

type ChargeRow = Awaited<ReturnType<typeof getCharge>>["charge"];
type RefundRow = Awaited<ReturnType<typeof listRefunds>>["rows"][number];

/** How a charge was paid, in words: "Visa •••• 4242", "Chase (ACH) •••• 6789" (`bankAccount`: the words for an unnamed bank). */
export function paidWith(
  charge: Pick<ChargeRow, "paymentMethod" | "ach" | "cardBrand" | "cardLast4">,
  bankAccount: string,
) {
  return charge.paymentMethod === "ach"
    ? `${charge.ach?.bank_name ?? bankAccount} (ACH) •••• ${charge.ach?.last4 ?? ""}`
    : `${brandName(charge.cardBrand)} •••• ${charge.cardLast4 ?? ""}`;
}

/** The same, in the reader's language. */
export async function paidWithText(charge: ChargeRow) {
  return paidWith(charge, (await getTranslations("dashboard"))("bankAccount"));
}

/**
 * One payment as the ISV's dashboard and the merchant's home show it: what was paid, with what, its
 * fee and what reached the merchant, its timeline and its refunds with their reasons (oldest first).
 */
export async function ChargeDetails({
  charge,
  refunds,
  disputeHref,
  isvName,
  forIsv = false,
}: {
  charge: ChargeRow;
  /** The ISV's display name: its platform fee is shown as "<ISV> fee" (docs/reference.md section 19). */
  isvName: string;
  refunds: RefundRow[];
  /** The page of a dispute (the home's, the dashboard's): a disputed charge links to its dispute. */
  disputeHref?: (id: string) => string;
  /** The ISV's dashboard: what the payment cost the platform and the ISV's margin too (never the merchant's). */
  forIsv?: boolean;
}) {
  const t = await getTranslations("dashboard");
  const disputeWords = await getTranslations("disputes");
  const revenueWords = await getTranslations("revenue");
  const format = await getFormatter();
  const locale = await getLocale();
  const money = (cents: number) => formatCents(cents, intlLocale(locale));
  const when = (d: Date | null) => (d ? format.dateTime(d, { dateStyle: "medium", timeStyle: "short" }) : null);
  const paidWith = await paidWithText(charge);
  const row = factRow;
  const timeline: [string, Date | null][] = [
    [t("timeline.authorized"), charge.authorizedAt],
    [t("timeline.settled"), charge.settledAt],
    [t("timeline.returned"), charge.returnedAt],
    [t("timeline.returnReversed"), charge.returnReversedAt],
  ];
  return (
    <>
      <section aria-labelledby="charge-facts">
        <h2 id="charge-facts" className="sr-only">
          {t("chargeDetails")}
        </h2>
        <dl className="space-y-1" data-testid="charge-facts">
          {row(t("status"), shownStatusText(t, charge))}
          {charge.disputeId ? (
            <div className="grid gap-x-4 sm:grid-cols-[minmax(0,12rem)_1fr]" data-testid="charge-disputed">
              <dt className="text-muted">{disputeWords("disputed")}</dt>
              <dd>
                {disputeHref ? (
                  <a href={disputeHref(charge.disputeId)} className="font-medium underline">
                    {disputeWords("open")}
                  </a>
                ) : (
                  <span className="font-mono text-sm" data-id>
                    {charge.disputeId}
                  </span>
                )}
              </dd>
            </div>
          ) : null}
          {row(t("date"), when(charge.createdAt))}
          {row(t("card"), paidWith)}
          {row(t("fee"), charge.fee === null ? null : money(charge.fee))}
          {charge.platformFee
            ? row(
                t("platformFee", { isv: isvName }),
                charge.platformFeeRefunded
                  ? t("platformFeeRefunded", {
                      amount: money(charge.platformFee),
                      refunded: money(charge.platformFeeRefunded),
                    })
                  : money(charge.platformFee),
              )
            : null}
          {/* The ledger's net: after refunds, and after a return (the bank took back what the merchant still held; the fee stays taken). */}
          {row(
            t(
              charge.status === "RETURNED"
                ? "netToMerchantReturned"
                : charge.amountRefunded > 0
                  ? "netToMerchantRefunded"
                  : "netToMerchant",
            ),
            charge.net === null ? null : money(charge.net),
          )}
          {forIsv && charge.costs !== null ? row(revenueWords("costs"), money(charge.costs)) : null}
          {forIsv && charge.margin !== null ? row(revenueWords("margin"), money(charge.margin)) : null}
          {row(t("refunded"), money(charge.amountRefunded))}
          {charge.failureReason
            ? row(
                charge.status === "RETURNED" ? t("returnReason") : t("declineReason"),
                messageOr(t, `failureReasons.${charge.failureReason}`) ?? charge.failureReason,
              )
            : null}
          {row(t("receiptNumber"), charge.receiptNumber)}
          {row(t("chargeId"), charge.id, undefined, "id")}
        </dl>
      </section>
      <section aria-labelledby="timeline-title">
        <h2 id="timeline-title" className="text-lg font-semibold">
          {t("timelineTitle")}
        </h2>
        <ol className="mt-2 space-y-1">
          {timelineOf(timeline, refunds, (amount) => t("timeline.refunded", { amount: money(amount) })).map(
            ({ label, at }, index) => (
              <li key={`${index}-${label}`}>
                <span className="text-muted">{when(at)}</span> · {label}
              </li>
            ),
          )}
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
            <td className="py-2">{r.reason ? enumLabel(t, "refundReasons", r.reason) : "—"}</td>
          </tr>
        ))}
      </DataTable>
    </>
  );
}
