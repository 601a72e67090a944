import { getFormatter, getLocale, getTranslations } from "next-intl/server";

import type { homeOverview } from "@/lib/domain/home/overview";
import { intlLocale } from "@/lib/i18n/locales";
import { formatCents } from "@/lib/money";

/** The next payout's card (the overview, the payouts page): its amount and when it arrives, or why it waits. */
export async function NextPayoutCard({
  next,
  className = "",
}: {
  next: Awaited<ReturnType<typeof homeOverview>>["nextPayout"];
  className?: string;
}) {
  const t = await getTranslations("payouts");
  const format = await getFormatter();
  const locale = intlLocale(await getLocale());
  return (
    <div className={`rounded-lg border border-line bg-card p-4 ${className}`} data-testid="next-payout">
      <p className="text-sm text-muted">{t("next")}</p>
      {next ? (
        <>
          <p className="mt-1 text-2xl font-semibold">{formatCents(next.amount, locale)}</p>
          <p className="text-sm text-muted">
            {next.heldReason
              ? t("nextHeld", { reason: t(`held.${next.heldReason}`) })
              : next.arrivalDate
                ? t("nextArrives", {
                    date: format.dateTime(new Date(`${next.arrivalDate}T12:00:00Z`), {
                      dateStyle: "medium",
                      timeZone: "UTC",
                    }),
                  })
                : t(`statuses.${next.status}`)}
          </p>
        </>
      ) : (
        <p className="mt-1">{t("nextNone")}</p>
      )}
    </div>
  );
}
