import Link from "next/link";
import { getFormatter, getLocale, getTranslations } from "next-intl/server";

import { paidWith } from "@/components/payments/charge-details";
import type { homeOverview } from "@/lib/domain/home/overview";
import { intlLocale } from "@/lib/i18n/locales";
import { formatCents } from "@/lib/money";

type Charge = Awaited<ReturnType<typeof homeOverview>>["recent"][number];

/**
 * The merchant's payments as the home lists them (the overview's latest, the payments page): when
 * (a link to the payment), how much (and what was refunded), with what, how it was paid, its status.
 */
export async function HomePaymentsTable({
  charges,
  labelledBy,
  testId,
  withType = false,
}: {
  charges: Charge[];
  labelledBy: string;
  testId: string;
  withType?: boolean;
}) {
  const t = await getTranslations("dashboard");
  const home = await getTranslations("merchantHome");
  const format = await getFormatter();
  const locale = intlLocale(await getLocale());
  const money = (cents: number) => formatCents(cents, locale);
  const head = "py-2 pr-3 font-medium";
  return (
    <div className="relative mt-2 overflow-x-auto" role="region" aria-labelledby={labelledBy} tabIndex={0}>
      <table className="w-full text-left text-sm" data-testid={testId}>
        <thead>
          <tr className="border-b border-line text-muted">
            <th scope="col" className={head}>
              {t("date")}
            </th>
            <th scope="col" className={`${head} text-right`}>
              {t("amount")}
            </th>
            {/* Below 640 px the card or account is left out (the payment's page says it): date, amount
                and status read without scrolling. */}
            <th scope="col" className={`${head} hidden sm:table-cell`}>
              {t("card")}
            </th>
            {withType ? (
              <th scope="col" className={head}>
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
                <Link className="underline" href={`/home/payments/${c.id}`}>
                  {format.dateTime(c.createdAt, { dateStyle: "medium", timeStyle: "short" })}
                </Link>
              </td>
              <td className="py-2 pr-3 text-right whitespace-nowrap">
                {money(c.amountCaptured || c.requestedAmount)}
                {c.amountRefunded > 0 ? (
                  <span className="block text-muted">
                    {t("refunded")} {money(c.amountRefunded)}
                  </span>
                ) : null}
              </td>
              <td className="hidden py-2 pr-3 whitespace-nowrap sm:table-cell">{paidWith(c, t("bankAccount"))}</td>
              {withType ? <td className="py-2 pr-3">{t(`paymentTypes.${c.paymentType}`)}</td> : null}
              <td className="py-2">{t(`chargeStatus.${c.status}`)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
