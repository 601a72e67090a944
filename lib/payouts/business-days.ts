import { clock } from "../clock";

// When a payout arrives (docs/reference.md section 16): the next business day of the banks that move
// it. An ACH credit settles on the Federal Reserve's business days: weekdays that are not one of
// the eleven US federal holidays as the Federal Reserve Banks observe them (source: "Holidays
// Observed by the Federal Reserve System", federalreserve.gov/aboutthefed/k8.htm). A holiday on a
// Sunday is observed the Monday after; one on a Saturday is not moved (the Reserve Banks are open
// the Friday before, unlike federal offices). The rules below give each year's dates; the tests
// hold them to the published lists, one year at a time.

/** YYYY-MM-DD of a UTC date. */
export const isoDay = (d: Date) => d.toISOString().slice(0, 10);

const utc = (year: number, month: number, day: number) => new Date(Date.UTC(year, month - 1, day));

/** The `n`th (1-based) `weekday` (0 Sunday .. 6 Saturday) of a month; n = -1: the last. */
function nthWeekday(year: number, month: number, weekday: number, n: number): Date {
  if (n > 0) {
    const first = utc(year, month, 1);
    const offset = (weekday - first.getUTCDay() + 7) % 7;
    return utc(year, month, 1 + offset + 7 * (n - 1));
  }
  const last = utc(year, month + 1, 0);
  const back = (last.getUTCDay() - weekday + 7) % 7;
  return utc(year, month, last.getUTCDate() - back);
}

/** A fixed-date holiday as the Reserve Banks observe it: Sunday → Monday; Saturday: not moved. */
function fixed(year: number, month: number, day: number): Date {
  const date = utc(year, month, day);
  return date.getUTCDay() === 0 ? utc(year, month, day + 1) : date;
}

const memo = new Map<number, Set<string>>();

/** The days of `year` the Federal Reserve Banks are closed for a holiday (YYYY-MM-DD). */
export function bankHolidays(year: number): Set<string> {
  let days = memo.get(year);
  if (!days) {
    const list = [
      fixed(year, 1, 1), // New Year's Day
      nthWeekday(year, 1, 1, 3), // Birthday of Martin Luther King, Jr.
      nthWeekday(year, 2, 1, 3), // Washington's Birthday
      nthWeekday(year, 5, 1, -1), // Memorial Day
      ...(year >= 2022 ? [fixed(year, 6, 19)] : []), // Juneteenth National Independence Day (observed since 2022)
      fixed(year, 7, 4), // Independence Day
      nthWeekday(year, 9, 1, 1), // Labor Day
      nthWeekday(year, 10, 1, 2), // Columbus Day
      fixed(year, 11, 11), // Veterans Day
      nthWeekday(year, 11, 4, 4), // Thanksgiving Day
      fixed(year, 12, 25), // Christmas Day
    ];
    days = new Set(list.filter((d) => d.getUTCDay() !== 6).map(isoDay));
    memo.set(year, days);
  }
  return days;
}

/** Whether the banks settle on this UTC day: a weekday that is not a holiday. */
export function isBusinessDay(day: Date): boolean {
  const weekday = day.getUTCDay();
  return weekday !== 0 && weekday !== 6 && !bankHolidays(day.getUTCFullYear()).has(isoDay(day));
}

/**
 * The start (00:00 UTC) of the `days`-th business day after the UTC day of `from` (0: `from` itself):
 * when a new bank account's cooling-off ends.
 */
export function businessDaysAfter(from: Date, days: number): Date {
  let day = utc(from.getUTCFullYear(), from.getUTCMonth() + 1, from.getUTCDate());
  if (days <= 0) return from;
  for (let n = 0; n < days;) {
    day = utc(day.getUTCFullYear(), day.getUTCMonth() + 1, day.getUTCDate() + 1);
    if (isBusinessDay(day)) n++;
  }
  return day;
}

/** The first business day after the UTC day of `from`: a payout's `arrival_date` (YYYY-MM-DD). */
export function nextBusinessDay(from: Date): string {
  let day = utc(from.getUTCFullYear(), from.getUTCMonth() + 1, from.getUTCDate() + 1);
  while (!isBusinessDay(day)) day = utc(day.getUTCFullYear(), day.getUTCMonth() + 1, day.getUTCDate() + 1);
  return isoDay(day);
}

/** The next 00:00 UTC after `from`. */
export function nextMidnightUtc(from = clock.now()) {
  return new Date(Date.UTC(from.getUTCFullYear(), from.getUTCMonth(), from.getUTCDate() + 1));
}
