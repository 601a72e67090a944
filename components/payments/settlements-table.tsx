import Link from "next/link";
import { getTranslations } from "next-intl/server";

import { DataTable } from "@/components/dashboard/data-table";
import type { getMerchantPayments } from "@/lib/domain/merchants/get-merchant-payments";
import { readerFormats } from "@/lib/i18n/reader-formats";

type Settlement = Awaited<ReturnType<typeof getMerchantPayments>>["settlements"][number];

/**
 * A merchant's settlements, newest first, each adding up (gross - refunds - returns - fees - disputes + carried in = net):
 * the ISV's dashboard and the merchant's home. What pays each net is the payouts table's (PayoutsTable).
 */
export async function SettlementsTable({
  settlements,
  href,
}: {
  settlements: Settlement[];
  /** Each settlement's own page (the merchant's home), its date then a link. */
  href?: (id: string) => string;
}) {
  const t = await getTranslations("dashboard");
  const { money, when } = await readerFormats();
  return (
    <DataTable
      id="settlements"
      title={t("settlements")}
      testId="settlements"
      empty={settlements.length === 0 ? t("noSettlements") : null}
      columns={[
        { label: t("date") },
        { label: t("chargeCount"), align: "right" },
        { label: t("gross"), align: "right" },
        { label: t("refundsTotal"), align: "right" },
        { label: t("achReturns"), align: "right" },
        { label: t("fees"), align: "right" },
        { label: t("disputesTotal"), align: "right" },
        { label: t("carriedIn"), align: "right" },
        { label: t("net"), align: "right" },
      ]}
    >
      {settlements.map((st) => (
        <tr key={st.id} className="border-b border-line">
          <td className="py-2 pr-3 whitespace-nowrap">
            {href ? (
              <Link href={href(st.id)} className="underline">
                {when(st.createdAt)}
              </Link>
            ) : (
              when(st.createdAt)
            )}
          </td>
          <td className="py-2 pr-3 text-right tabular-nums">{st.chargeCount}</td>
          <td className="py-2 pr-3 text-right tabular-nums">{money(st.gross)}</td>
          <td className="py-2 pr-3 text-right tabular-nums">{money(st.refunds)}</td>
          {/* Returns taken back less reversed returns paid back: with it, gross - refunds - returns - fees = net. */}
          <td className="py-2 pr-3 text-right tabular-nums">{money(st.returns - st.reversals)}</td>
          <td className="py-2 pr-3 text-right tabular-nums">{money(st.fees)}</td>
          {/* Disputed amounts and their fees taken, less won disputes' amounts paid back. */}
          <td className="py-2 pr-3 text-right tabular-nums" data-testid="settlement-disputes">
            {money(st.disputes + st.disputeFees - st.disputesWon)}
          </td>
          {/* A negative balance of the settlement before, taken from this one (<= 0). */}
          <td className="py-2 pr-3 text-right tabular-nums">{money(st.carriedIn)}</td>
          <td className="py-2 pr-3 text-right tabular-nums">{money(st.net)}</td>
        </tr>
      ))}
    </DataTable>
  );
}
