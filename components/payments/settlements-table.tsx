import Link from "next/link";
import { getTranslations } from "next-intl/server";

import { DataTable } from "@/components/ui/data-table";
import { readerFormats } from "@/lib/i18n/reader-formats";
import { lineAmount, type SettlementFigures, summaryLines } from "@/lib/ledger/settlement-figures";

type Settlement = SettlementFigures & { id: string; createdAt: Date };

/**
 * A merchant's settlements, newest first: the ISV's dashboard and the merchant's home. Each row is
 * the settlement's summary lines (lib/ledger `summaryLines`), one column each, so every row adds up
 * to its net; the ISV's fee has its column when any settlement took one. What pays each net is the
 * payouts table's (PayoutsTable).
 */
export async function SettlementsTable({
  settlements,
  isvName,
  href,
}: {
  settlements: Settlement[];
  /** The ISV's name, for its platform fee's column ("Acme fee"). */
  isvName: string;
  /** Each settlement's own page (the merchant's home), its date then a link. */
  href?: (id: string) => string;
}) {
  const t = await getTranslations("dashboard");
  const { money, when } = await readerFormats();
  const rows = settlements.map((st) => ({ st, lines: summaryLines(st) }));
  const withPlatformFees = rows.some((r) => lineAmount(r.lines, "platform_fees") !== 0);
  const cell = "py-2 pr-3 text-right tabular-nums";
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
        ...(withPlatformFees ? [{ label: t("platformFee", { isv: isvName }), align: "right" as const }] : []),
        { label: t("disputesTotal"), align: "right" },
        { label: t("carriedIn"), align: "right" },
        { label: t("net"), align: "right" },
      ]}
    >
      {rows.map(({ st, lines }) => (
        <tr key={st.id} className="border-b border-line" data-testid="settlement-row">
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
          <td className={cell} data-line="gross">
            {money(lineAmount(lines, "gross"))}
          </td>
          <td className={cell} data-line="refunds">
            {money(lineAmount(lines, "refunds"))}
          </td>
          {/* Returns taken back, less reversed returns paid back. */}
          <td className={cell} data-line="returns">
            {money(lineAmount(lines, "returns") + lineAmount(lines, "reversals"))}
          </td>
          <td className={cell} data-line="fees">
            {money(lineAmount(lines, "fees"))}
          </td>
          {withPlatformFees ? (
            <td className={cell} data-line="platform_fees">
              {money(lineAmount(lines, "platform_fees"))}
            </td>
          ) : null}
          {/* Disputed amounts and their fees taken, less won disputes' amounts paid back. */}
          <td className={cell} data-testid="settlement-disputes" data-line="disputes">
            {money(lineAmount(lines, "disputes") + lineAmount(lines, "disputes_won"))}
          </td>
          {/* A negative balance of the settlement before, taken from this one (<= 0). */}
          <td className={cell} data-line="carried_in">
            {money(lineAmount(lines, "carried_in"))}
          </td>
          <td className={cell} data-testid="settlement-net">
            {money(st.net)}
          </td>
        </tr>
      ))}
    </DataTable>
  );
}
