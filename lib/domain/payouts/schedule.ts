import { type FieldError, invalidFields } from "../../errors";
import { isBusinessDay, isoDay } from "../../payouts/business-days";
import { type PayoutSchedule, type PayoutScheduleChange, type Weekday, weekdays } from "../../schemas/payout-schedule";

// A merchant's payout schedule (docs/reference.md section 20): which days its payouts are made.
// The payout run (./pay-scheduled.ts) makes one on each such day, after the day's settlement, of
// everything the merchant may draw when that is at least its minimum.

const utcDay = (year: number, month: number, day: number) => new Date(Date.UTC(year, month, day));
const daysIn = (year: number, month: number) => new Date(Date.UTC(year, month + 1, 0)).getUTCDate();

/**
 * The day of the month a monthly payout is made in `day`'s month: the anchor, or the month's last
 * day when the month is shorter; when that day is not a business day, the business day before it
 * in the month (the money never slips into the next month), or after it when none is before.
 */
export function monthlyPayoutDay(anchor: number, day: Date): string {
  const year = day.getUTCFullYear();
  const month = day.getUTCMonth();
  const last = daysIn(year, month);
  const target = Math.min(anchor, last);
  for (let d = target; d >= 1; d--) if (isBusinessDay(utcDay(year, month, d))) return isoDay(utcDay(year, month, d));
  for (let d = target + 1; d <= last; d++)
    if (isBusinessDay(utcDay(year, month, d))) return isoDay(utcDay(year, month, d));
  return isoDay(utcDay(year, month, target));
}

/**
 * The day of `day`'s week (Monday to Sunday) a weekly payout is made: the anchor weekday, or the
 * next business day after it in the same week when it is a holiday (Labor Day: Tuesday), or the one
 * before it when none is after (a Friday Christmas: Thursday).
 */
export function weeklyPayoutDay(anchor: Weekday, day: Date): string {
  const monday = utcDay(day.getUTCFullYear(), day.getUTCMonth(), day.getUTCDate() - ((day.getUTCDay() + 6) % 7));
  const at = weekdays.indexOf(anchor);
  for (let offset = at; offset < 5; offset++) {
    const candidate = utcDay(monday.getUTCFullYear(), monday.getUTCMonth(), monday.getUTCDate() + offset);
    if (isBusinessDay(candidate)) return isoDay(candidate);
  }
  for (let offset = at - 1; offset >= 0; offset--) {
    const candidate = utcDay(monday.getUTCFullYear(), monday.getUTCMonth(), monday.getUTCDate() + offset);
    if (isBusinessDay(candidate)) return isoDay(candidate);
  }
  return isoDay(utcDay(monday.getUTCFullYear(), monday.getUTCMonth(), monday.getUTCDate() + at));
}

/** Whether the schedule makes a payout on the UTC day of `day` (daily: every day; manual: never). */
export function isPayoutDay(
  schedule: Pick<PayoutSchedule, "interval" | "weekly_anchor" | "monthly_anchor">,
  day: Date,
) {
  switch (schedule.interval) {
    case "daily":
      return true;
    case "manual":
      return false;
    case "weekly":
      return schedule.weekly_anchor !== null && weeklyPayoutDay(schedule.weekly_anchor, day) === isoDay(day);
    case "monthly":
      return schedule.monthly_anchor !== null && monthlyPayoutDay(schedule.monthly_anchor, day) === isoDay(day);
  }
}

/**
 * The schedule after a change: the fields given replace the current ones; an anchor goes with its
 * interval (required when the interval needs it and none is kept, refused with another interval,
 * dropped when the interval changes away from it). A refused change throws every problem at once.
 */
export function changeSchedule(current: PayoutSchedule, change: PayoutScheduleChange): PayoutSchedule {
  const interval = change.interval ?? current.interval;
  const errors: FieldError[] = [];
  const anchor = <K extends "weekly_anchor" | "monthly_anchor">(key: K, needs: PayoutSchedule["interval"]) => {
    const given = change[key];
    if (interval !== needs) {
      if (given !== undefined && given !== null)
        errors.push({
          param: `payout_schedule.${key}`,
          code: "parameter_not_allowed",
          message: `payout_schedule.${key} is only for interval ${needs}`,
        });
      return null;
    }
    const kept = given === undefined && current.interval === needs ? current[key] : (given ?? null);
    if (kept === null)
      errors.push({
        param: `payout_schedule.${key}`,
        code: "parameter_missing",
        message: `payout_schedule.${key} is required with interval ${needs}`,
      });
    return kept as PayoutSchedule[K];
  };
  const schedule: PayoutSchedule = {
    interval,
    weekly_anchor: anchor("weekly_anchor", "weekly"),
    monthly_anchor: anchor("monthly_anchor", "monthly"),
    delay_days: change.delay_days ?? current.delay_days,
    minimum_amount: change.minimum_amount ?? current.minimum_amount,
  };
  if (errors.length) throw invalidFields(errors);
  return schedule;
}

/** The next day (from the day after `from`, within 62 days) the schedule makes a payout, YYYY-MM-DD; null when manual. */
export function nextPayoutDay(
  schedule: Pick<PayoutSchedule, "interval" | "weekly_anchor" | "monthly_anchor">,
  from: Date,
) {
  if (schedule.interval === "manual") return null;
  for (let n = 1; n <= 62; n++) {
    const day = utcDay(from.getUTCFullYear(), from.getUTCMonth(), from.getUTCDate() + n);
    if (isPayoutDay(schedule, day)) return isoDay(day);
  }
  return null;
}
