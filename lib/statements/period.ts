/** The first instant (UTC) of a period "YYYY-MM" (a statement's, a residual's): an invalid date for anything else. */
export function periodStart(period: string): Date {
  const [year = Number.NaN, month = Number.NaN] = period.split("-").map(Number);
  return new Date(Date.UTC(year, month - 1, 1));
}
