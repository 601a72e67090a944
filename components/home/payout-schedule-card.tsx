import Link from "next/link";
import { getFormatter, getLocale, getTranslations } from "next-intl/server";

import { homeScheduleAction } from "@/lib/actions/home-payouts";
import type { homePayoutFacts } from "@/lib/domain/home/payouts";
import { intlLocale } from "@/lib/i18n/locales";
import { formatCents } from "@/lib/money";
import { brandName } from "@/lib/payments/brands";

import { InstantPayout } from "./instant-payout";
import { PayOutNow } from "./pay-out-now";
import { PayoutScheduleForm } from "./payout-schedule-form";

type Facts = Awaited<ReturnType<typeof homePayoutFacts>>;

/**
 * When money comes (docs/reference.md section 20): the schedule in words, the next payout day, the
 * form to change it when the ISV allows, "pay out now" while payouts are not held, and an instant
 * payout where the ISV enables them.
 */
export async function PayoutScheduleCard({ facts, bankLast4 }: { facts: Facts; bankLast4: string | null }) {
  const t = await getTranslations("payouts");
  const format = await getFormatter();
  const locale = intlLocale(await getLocale());
  const { schedule } = facts;
  const day = (iso: string) =>
    format.dateTime(new Date(`${iso}T12:00:00Z`), {
      weekday: "short",
      month: "short",
      day: "numeric",
      timeZone: "UTC",
    });
  const how =
    schedule.interval === "weekly" && schedule.weekly_anchor
      ? t("schedule.says.weekly", { weekday: t(`schedule.weekdays.${schedule.weekly_anchor}`) })
      : schedule.interval === "monthly"
        ? t("schedule.says.monthly", { day: schedule.monthly_anchor ?? 1 })
        : t(`schedule.says.${schedule.interval === "weekly" ? "daily" : schedule.interval}`);
  return (
    <>
      <section className="mt-4 rounded-lg border border-line bg-card p-4" aria-labelledby="schedule-title">
        <h2 id="schedule-title" className="text-lg font-semibold">
          {t("schedule.title")}
        </h2>
        <p className="mt-1" data-testid="schedule-says">
          {how} · {t("schedule.arrives", { days: schedule.delay_days })}
          {schedule.minimum_amount > 0
            ? ` · ${t("schedule.minimum", { amount: formatCents(schedule.minimum_amount, locale) })}`
            : ""}
        </p>
        {facts.nextPayoutDay ? (
          <p className="text-sm text-muted">{t("schedule.nextDay", { date: day(facts.nextPayoutDay) })}</p>
        ) : null}
        {facts.canChangeSchedule ? (
          <PayoutScheduleForm schedule={schedule} action={homeScheduleAction} />
        ) : (
          <p className="mt-2 text-sm text-muted">{t("schedule.setByIsv")}</p>
        )}
      </section>
      <section className="mt-4 rounded-lg border border-line bg-card p-4" aria-labelledby="pay-now-title">
        <h2 id="pay-now-title" className="text-lg font-semibold">
          {t("payNow.title")}
        </h2>
        {facts.heldReason ? (
          <p className="mt-1">{t("nextHeld", { reason: t(`held.${facts.heldReason}`) })}</p>
        ) : (
          <PayOutNow available={facts.available} bankLast4={bankLast4} />
        )}
      </section>
      {/* Instant payouts, where the ISV enables them: the card says why none can be made now. */}
      {facts.instant.code === "not_enabled" ? null : (
        <section className="mt-4 rounded-lg border border-line bg-card p-4" aria-labelledby="instant-title">
          <h2 id="instant-title" className="text-lg font-semibold">
            {t("instant.title")}
          </h2>
          {facts.instant.code ? (
            <>
              <p className="mt-1" data-testid="instant-unavailable">
                {facts.instant.code === "held" && facts.heldReason
                  ? t("nextHeld", { reason: t(`held.${facts.heldReason}`) })
                  : facts.instant.code === "card_cooling"
                    ? t("instant.why.card_cooling", { date: day(facts.instant.quote.payout_card?.usable_from ?? "") })
                    : t(`instant.why.${facts.instant.code}`)}
              </p>
              {facts.instant.code === "bank_unreachable" || facts.instant.code === "card_expired" ? (
                <Link href="/home/settings#payout-card" className="mt-1 inline-block underline">
                  {t("instant.addCard")}
                </Link>
              ) : null}
            </>
          ) : (
            <InstantPayout
              available={facts.instant.quote.available}
              costBps={facts.instant.costBps}
              markupBps={facts.instant.markupBps}
              destinations={facts.instant.quote.rails.map((rail) => ({
                rail,
                label:
                  rail === "rtp"
                    ? t("instant.toBank", { last4: bankLast4 ?? "" })
                    : t("instant.toCard", {
                        brand: brandName(facts.instant.quote.payout_card?.brand),
                        last4: facts.instant.quote.payout_card?.last4 ?? "",
                      }),
              }))}
            />
          )}
        </section>
      )}
    </>
  );
}
