import { describe, expect, test } from "vitest";

import { bankHolidays, businessDaysAfter, isBusinessDay, nextBusinessDay } from "./business-days";

// The Federal Reserve's published holiday lists (federalreserve.gov/aboutthefed/k8.htm), the days
// the Reserve Banks are closed: a holiday on a Saturday is not in the list (marked * there: open
// the Friday before), one on a Sunday is observed the Monday after.
const published: Record<number, string[]> = {
  2025: [
    "2025-01-01",
    "2025-01-20",
    "2025-02-17",
    "2025-05-26",
    "2025-06-19",
    "2025-07-04",
    "2025-09-01",
    "2025-10-13",
    "2025-11-11",
    "2025-11-27",
    "2025-12-25",
  ],
  // July 4 is a Saturday: not observed.
  2026: [
    "2026-01-01",
    "2026-01-19",
    "2026-02-16",
    "2026-05-25",
    "2026-06-19",
    "2026-09-07",
    "2026-10-12",
    "2026-11-11",
    "2026-11-26",
    "2026-12-25",
  ],
  // June 19 and December 25 are Saturdays; July 4 a Sunday, observed Monday the 5th.
  2027: [
    "2027-01-01",
    "2027-01-18",
    "2027-02-15",
    "2027-05-31",
    "2027-07-05",
    "2027-09-06",
    "2027-10-11",
    "2027-11-11",
    "2027-11-25",
  ],
  // January 1 and November 11 are Saturdays.
  2028: [
    "2028-01-17",
    "2028-02-21",
    "2028-05-29",
    "2028-06-19",
    "2028-07-04",
    "2028-09-04",
    "2028-10-09",
    "2028-11-23",
    "2028-12-25",
  ],
};

describe.each(Object.entries(published))("the Federal Reserve's holidays of %s", (year, days) => {
  test("are exactly the published list", () => {
    expect([...bankHolidays(Number(year))].sort()).toEqual(days);
  });
});

const day = (iso: string) => new Date(`${iso}T00:00:00Z`);

describe("a payout's arrival date: the next business day", () => {
  test.each([
    ["a Monday", "2026-11-23T00:00:00Z", "2026-11-24"],
    ["late on a Tuesday (UTC)", "2026-11-24T23:59:59.999Z", "2026-11-25"],
    ["the day before Thanksgiving: the Friday after", "2026-11-25T00:00:00Z", "2026-11-27"],
    ["a Friday: the Monday", "2026-11-27T00:00:00Z", "2026-11-30"],
    ["a Saturday", "2026-11-28T00:00:00Z", "2026-11-30"],
    ["the Thursday before a Saturday July 4: the Friday (the banks are open)", "2026-07-02T00:00:00Z", "2026-07-03"],
    ["the Friday before a Sunday July 4: past the observed Monday", "2027-07-02T00:00:00Z", "2027-07-06"],
    ["Christmas Eve on a Friday before a Saturday Christmas: the Monday", "2027-12-24T00:00:00Z", "2027-12-27"],
    ["New Year's Eve into a new year's holiday", "2025-12-31T00:00:00Z", "2026-01-02"],
    ["the Friday before Martin Luther King Day", "2026-01-16T00:00:00Z", "2026-01-20"],
  ])("%s", (_, from, expected) => {
    expect(nextBusinessDay(new Date(from))).toBe(expected);
  });

  test("weekends and holidays are not business days; other weekdays are", () => {
    expect(isBusinessDay(day("2026-11-26"))).toBe(false); // Thanksgiving
    expect(isBusinessDay(day("2026-11-28"))).toBe(false); // Saturday
    expect(isBusinessDay(day("2026-11-29"))).toBe(false); // Sunday
    expect(isBusinessDay(day("2026-07-03"))).toBe(true); // the Friday before a Saturday holiday
    expect(isBusinessDay(day("2027-07-05"))).toBe(false); // a Sunday holiday's Monday
    expect(isBusinessDay(day("2026-11-27"))).toBe(true);
  });
});

describe("the calendar's rules, every year from the first Juneteenth (2022) to 2060", () => {
  const years = Array.from({ length: 2060 - 2022 + 1 }, (_, i) => 2022 + i);
  test.each(years)(
    "%i: Juneteenth closes the banks unless it falls on a Saturday (a Sunday one: the Monday)",
    (year) => {
      const june19 = day(`${year}-06-19`);
      const holidays = bankHolidays(year);
      const weekday = june19.getUTCDay();
      if (weekday === 6) expect([...holidays].some((d) => d.startsWith(`${year}-06-`))).toBe(false);
      else if (weekday === 0) expect(holidays.has(`${year}-06-20`)).toBe(true);
      else expect(holidays.has(`${year}-06-19`)).toBe(true);
      // Ten or eleven holidays, never on a weekend.
      expect(holidays.size).toBeGreaterThanOrEqual(9);
      expect(holidays.size).toBeLessThanOrEqual(11);
      for (const d of holidays) expect([0, 6]).not.toContain(day(d).getUTCDay());
    },
  );

  test("2021 has no Juneteenth (the law came in June 2021, the Reserve Banks observed it from 2022)", () => {
    expect(bankHolidays(2021).has("2021-06-18")).toBe(false);
    expect(bankHolidays(2021).has("2021-06-19")).toBe(false);
  });
});

describe("businessDaysAfter: when a new bank account's cooling-off ends", () => {
  test.each([
    ["0 days: at once", "2026-11-27T12:00:00Z", 0, "2026-11-27T12:00:00.000Z"],
    ["3 business days from a Wednesday before Thanksgiving", "2026-11-25T15:00:00Z", 3, "2026-12-01T00:00:00.000Z"],
    ["3 business days from a Friday", "2026-11-27T09:00:00Z", 3, "2026-12-02T00:00:00.000Z"],
    ["1 business day from a Saturday", "2026-11-28T09:00:00Z", 1, "2026-11-30T00:00:00.000Z"],
  ])("%s", (_, from, days, expected) => {
    expect(businessDaysAfter(new Date(from), days).toISOString()).toBe(expected);
  });
});
