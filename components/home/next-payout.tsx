import { getFormatter, getLocale, getTranslations } from "next-intl/server";

import type { homeOverview } from "@/lib/domain/home/overview";
import type { homePayoutFacts } from "@/lib/domain/home/payouts";
import { intlLocale } from "@/lib/i18n/locales";
import { formatCents } from "@/lib/money";

/**
 * The next payout's card (the overview, the payouts page): its amount and when it arrives, or why it
 * waits; with none made yet, what waits for the schedule's next payout day (or for its minimum).
 */
export async function NextPayoutCard({
  next,
  waiting,
  className = "",
}: {
  next: Awaited<ReturnType<typeof homeOverview>>["nextPayout"];
  /** The money out facts (lib/domain/home/payouts.ts): what is available and the next payout day. */
  waiting?: Pick<Awaited<ReturnType<typeof homePayoutFacts>>, "available" | "nextPayoutDay" | "schedule" | "reserves">;
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
      ) : waiting && waiting.available > 0 ? (
        <>
          <p className="mt-1 text-2xl font-semibold">{formatCents(waiting.available, locale)}</p>
          <p className="text-sm text-muted">
            {waiting.available < waiting.schedule.minimum_amount
              ? t("waitsForMinimum", { minimum: formatCents(waiting.schedule.minimum_amount, locale) })
              : waiting.nextPayoutDay
                ? t("waitsForDay", {
                    date: format.dateTime(new Date(`${waiting.nextPayoutDay}T12:00:00Z`), {
                      weekday: "short",
                      month: "short",
                      day: "numeric",
                      timeZone: "UTC",
                    }),
                  })
                : t("waitsForYou")}
          </p>
        </>
      ) : (
        <p className="mt-1">{t("nextNone")}</p>
      )}
      {waiting?.reserves.length ? <ReserveLines reserves={waiting.reserves} /> : null}
    </div>
  );
}

type Reserve = Awaited<ReturnType<typeof homePayoutFacts>>["reserves"][number];

/** Why money waits: each reserve's hold, its terms, when it comes back, and its reason in the ISV's words. */
async function ReserveLines({ reserves }: { reserves: Reserve[] }) {
  const t = await getTranslations("payouts.reserve");
  const format = await getFormatter();
  const locale = intlLocale(await getLocale());
  const day = (date: string) =>
    format.dateTime(new Date(`${date}T12:00:00Z`), { month: "short", day: "numeric", timeZone: "UTC" });
  const line = (r: Reserve) => {
    const amount = formatCents(r.held, locale);
    if (r.type === "fixed")
      return r.next_release ? t("fixedUntil", { amount, date: day(r.next_release.date) }) : t("fixedOpen", { amount });
    const percent = format.number((r.percent ?? 0) / 100, { style: "percent", maximumFractionDigits: 2 });
    if (r.held === 0 || !r.next_release) return t("rollingFirst", { percent, days: r.hold_days ?? 0 });
    return t("rolling", { amount, percent, date: day(r.next_release.date) });
  };
  return (
    <ul className="mt-3 space-y-2 border-t border-line pt-3 text-sm" data-testid="reserve-lines">
      {reserves.map((r) => (
        <li key={r.id}>
          <p className="font-medium">{line(r)}</p>
          <p className="text-muted">{t("why", { reason: r.reason })}</p>
        </li>
      ))}
    </ul>
  );
}
