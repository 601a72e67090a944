import Link from "next/link";
import { getFormatter, getLocale, getTranslations } from "next-intl/server";

import { paidWith } from "@/components/payments/charge-details";
import { shownStatusText } from "@/components/payments/shown-status";
import { ScrollRegion } from "@/components/ui/scroll-region";
import type { homeOverview } from "@/lib/domain/home/overview";
import { intlLocale } from "@/lib/i18n/locales";
import { formatCents } from "@/lib/money";

type Charge = Awaited<ReturnType<typeof homeOverview>>["recent"][number];

/**
 * Payments as a list shows them (the home's latest and its payments page, the dashboard's payments
 * across merchants): when (a link to the payment, `/home/payments/:id` unless `href` says), how much
 * (and what was refunded), with what, how it was paid, its status; on the dashboard, whose.
 */
export async function PaymentsTable({
  charges,
  labelledBy,
  testId,
  withType = false,
  href = (charge) => `/home/payments/${charge.id}`,
  merchantOf,
}: {
  charges: Charge[];
  labelledBy: string;
  testId: string;
  withType?: boolean;
  href?: (charge: Charge) => string;
  /** The merchant's name and its page, for a list across merchants. */
  merchantOf?: (charge: Charge) => { name: string; href: string };
}) {
  const t = await getTranslations("dashboard");
  const home = await getTranslations("merchantHome");
  const format = await getFormatter();
  const locale = intlLocale(await getLocale());
  const money = (cents: number) => formatCents(cents, locale);
  const head = "py-2 pr-3 font-medium";
  return (
    <ScrollRegion className="mt-2" labelledBy={labelledBy}>
      <table className="w-full text-left text-sm" data-testid={testId}>
        <thead>
          <tr className="border-b border-line text-muted">
            <th scope="col" className={head}>
              {t("date")}
            </th>
            {merchantOf ? (
              <th scope="col" className={head}>
                {t("merchant")}
              </th>
            ) : null}
            <th scope="col" className={`${head} text-right`}>
              {t("amount")}
            </th>
            {/* Below 640 px the card or account and how it was paid are left out (the payment's page
                says them): date, (merchant,) amount and status read without scrolling. */}
            <th scope="col" className={`${head} hidden sm:table-cell`}>
              {t("card")}
            </th>
            {withType ? (
              <th scope="col" className={`${head} hidden sm:table-cell`}>
                {home("type")}
              </th>
            ) : null}
            <th scope="col" className="py-2 font-medium">
              {t("status")}
            </th>
          </tr>
        </thead>
        <tbody>
          {charges.map((c) => (
            <tr key={c.id} className="border-b border-line">
              <td className="py-2 pr-3 whitespace-nowrap">
                <Link className="underline" href={href(c)}>
                  {format.dateTime(c.createdAt, { dateStyle: "medium", timeStyle: "short" })}
                </Link>
              </td>
              {merchantOf ? (
                <td className="py-2 pr-3">
                  <Link className="underline" href={merchantOf(c).href}>
                    {merchantOf(c).name}
                  </Link>
                </td>
              ) : null}
              <td className="py-2 pr-3 text-right whitespace-nowrap">
                {money(c.amountCaptured || c.requestedAmount)}
                {c.amountRefunded > 0 ? (
                  <span className="block text-muted">
                    {t("refunded")} {money(c.amountRefunded)}
                  </span>
                ) : null}
              </td>
              <td className="hidden py-2 pr-3 whitespace-nowrap sm:table-cell">{paidWith(c, t("bankAccount"))}</td>
              {withType ? (
                <td className="hidden py-2 pr-3 sm:table-cell">{t(`paymentTypes.${c.paymentType}`)}</td>
              ) : null}
              <td className="py-2">{shownStatusText(t, c)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </ScrollRegion>
  );
}
