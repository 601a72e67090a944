import Link from "next/link";
import { getFormatter, getLocale, getTranslations } from "next-intl/server";

import { DataTable } from "@/components/ui/data-table";
import type { listDisputes } from "@/lib/domain/disputes/list-disputes";
import { daysToRespond } from "@/lib/domain/disputes/rules";
import { intlLocale } from "@/lib/i18n/locales";
import { formatCents } from "@/lib/money";

export type Dispute = Awaited<ReturnType<typeof listDisputes>>["rows"][number];

/**
 * A merchant's disputes, newest first: the amount, the reason and the status in words, and for one
 * that waits for an answer the days left ("Respond within 5 days"): the merchant's home and the
 * ISV's dashboard.
 */
export async function DisputesTable({
  disputes,
  href,
  title,
  now = new Date(),
}: {
  disputes: Dispute[];
  /** The table's heading (default "Disputes"; a page already titled so names the list instead). */
  title?: string;
  /** Where a dispute is shown (the home's dispute page; the dashboard's payment page). */
  href: (dispute: Dispute) => string;
  now?: Date;
}) {
  const t = await getTranslations("disputes");
  const format = await getFormatter();
  const locale = intlLocale(await getLocale());
  return (
    <DataTable
      id="disputes"
      title={title ?? t("title")}
      testId="disputes"
      empty={disputes.length === 0 ? t("none") : null}
      columns={[
        { label: t("opened") },
        { label: t("amount"), align: "right" },
        { label: t("reason") },
        { label: t("status") },
        { label: t("respond") },
      ]}
    >
      {disputes.map((d) => (
        <tr key={d.id} className="border-b border-line align-top" data-testid={`dispute-${d.id}`}>
          <td className="py-2 pr-3 whitespace-nowrap">
            <Link href={href(d)} className="underline">
              {format.dateTime(d.createdAt, { dateStyle: "medium" })}
              <span className="sr-only"> {t("open")}</span>
            </Link>
          </td>
          <td className="py-2 pr-3 text-right tabular-nums">{formatCents(d.amount, locale)}</td>
          <td className="min-w-36 py-2 pr-3">{t(`reasonNames.${d.reason}`)}</td>
          <td className="min-w-36 py-2 pr-3 font-medium">{t(`statuses.${d.status}`)}</td>
          <td className="py-2 whitespace-nowrap">
            {d.status === "needs_response" ? t("respondWithin", { days: daysToRespond(d.evidenceDueBy, now) }) : "—"}
          </td>
        </tr>
      ))}
    </DataTable>
  );
}
