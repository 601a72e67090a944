import Link from "next/link";
import { getTranslations } from "next-intl/server";

import { paidWith } from "@/components/payments/charge-details";
import { shownStatusText } from "@/components/payments/shown-status";
import { DataTable } from "@/components/ui/data-table";
import type { getMerchantPayments } from "@/lib/domain/merchants/get-merchant-payments";
import type { listPaymentRequests } from "@/lib/domain/payments/list-payment-requests";
import { readerFormats } from "@/lib/i18n/reader-formats";
import type { serializePaymentRequest } from "@/lib/serializers/payment-request";

type Charge = Awaited<ReturnType<typeof getMerchantPayments>>["charges"][number];
type PaymentRequestRow = Awaited<ReturnType<typeof listPaymentRequests>>["rows"][number];

/**
 * The merchant's payments tab: its newest payment requests as the API shows them (total, the pay page
 * on the ISV's host while one is open) and its charges, each opening its own page.
 */
export async function PaymentsTables({
  merchantId,
  requests,
  charges,
}: {
  merchantId: string;
  requests: { row: PaymentRequestRow; json: ReturnType<typeof serializePaymentRequest> }[];
  charges: Charge[];
}) {
  const t = await getTranslations("dashboard");
  const { money, when } = await readerFormats();
  return (
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
      <DataTable
        id="payments"
        title={t("payments")}
        testId="payments"
        empty={charges.length === 0 ? t("noPayments") : null}
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
        {charges.map((c) => (
          <tr key={c.id} className="border-b border-line align-top" data-charge={c.id}>
            <td className="py-2 pr-3 whitespace-nowrap">{when(c.createdAt)}</td>
            <td className="py-2 pr-3 text-right tabular-nums">{money(c.requestedAmount)}</td>
            <td className="py-2 pr-3 whitespace-nowrap">{paidWith(c, t("bankAccount"))}</td>
            <td className="py-2 pr-3">{shownStatusText(t, c)}</td>
            <td className="py-2 pr-3 text-right tabular-nums">{c.fee === null ? "—" : money(c.fee)}</td>
            <td className="py-2 pr-3 text-right tabular-nums" data-testid="refunded">
              {money(c.amountRefunded)}
            </td>
            <td className="py-2">
              <Link
                href={`/dashboard/merchants/${merchantId}/charges/${c.id}`}
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
  );
}
