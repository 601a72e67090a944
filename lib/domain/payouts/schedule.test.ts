import { describe, expect, test } from "vitest";

import { AppError } from "../../errors";
import { defaultPayoutSchedule, type PayoutSchedule } from "../../schemas/payout-schedule";
import { changeSchedule, isPayoutDay, monthlyPayoutDay, weeklyPayoutDay } from "./schedule";

const d = (day: string) => new Date(`${day}T00:00:00Z`);
const days = (from: string, to: string) => {
  const out: Date[] = [];
  for (let t = d(from).getTime(); t <= d(to).getTime(); t += 86_400_000) out.push(new Date(t));
  return out;
};
const payoutDays = (schedule: Partial<PayoutSchedule>, from: string, to: string) =>
  days(from, to)
    .filter((day) => isPayoutDay({ ...defaultPayoutSchedule, ...schedule }, day))
    .map((day) => day.toISOString().slice(0, 10));

describe("monthly", () => {
  test.each([
    [30, "2026-04-10", "2026-04-30"], // a Thursday
    [31, "2026-04-10", "2026-04-30"], // April is shorter: its last day, a business day
    [31, "2027-02-10", "2027-02-26"], // Feb 28 2027 is a Sunday: the Friday before
    [29, "2028-02-03", "2028-02-29"], // a leap year's 29th, a Tuesday
    [31, "2026-05-10", "2026-05-29"], // May 31 2026 a Sunday: Friday 29 (Memorial Day is the 25th)
    [1, "2027-01-20", "2027-01-04"], // Jan 1 2027 a Friday holiday, nothing before it: the Monday after
    [25, "2026-12-01", "2026-12-24"], // Christmas, a Friday: the Thursday before
    [15, "2026-06-01", "2026-06-15"],
  ])("anchor %i in the month of %s: %s", (anchor, day, expected) => {
    expect(monthlyPayoutDay(anchor, d(day))).toBe(expected);
  });

  test("once a month, across a year's month ends", () => {
    const made = payoutDays({ interval: "monthly", monthly_anchor: 31 }, "2026-01-01", "2026-12-31");
    expect(made).toEqual([
      "2026-01-30", // Jan 31 a Saturday
      "2026-02-27",
      "2026-03-31",
      "2026-04-30",
      "2026-05-29",
      "2026-06-30",
      "2026-07-31",
      "2026-08-31",
      "2026-09-30",
      "2026-10-30", // Oct 31 a Saturday
      "2026-11-30",
      "2026-12-31",
    ]);
  });
});

describe("weekly", () => {
  test.each([
    ["monday", "2026-09-09", "2026-09-08"], // Labor Day: the Tuesday
    ["friday", "2026-12-23", "2026-12-24"], // Christmas on the Friday: the Thursday
    ["friday", "2026-06-17", "2026-06-18"], // Juneteenth on the Friday
    ["wednesday", "2026-11-29", "2026-11-25"], // a Sunday: its week began on Monday the 23rd
    ["thursday", "2026-11-24", "2026-11-27"], // Thanksgiving: the Friday
  ] as const)("%s in the week of %s: %s", (anchor, day, expected) => {
    expect(weeklyPayoutDay(anchor, d(day))).toBe(expected);
  });

  test("one day a week, across a month end and holidays", () => {
    expect(payoutDays({ interval: "weekly", weekly_anchor: "monday" }, "2026-08-28", "2026-09-30")).toEqual([
      "2026-08-31",
      "2026-09-08", // Labor Day
      "2026-09-14",
      "2026-09-21",
      "2026-09-28",
    ]);
  });
});

test("daily is every day; manual never", () => {
  expect(payoutDays({ interval: "daily" }, "2026-12-24", "2026-12-27")).toHaveLength(4);
  expect(payoutDays({ interval: "manual" }, "2026-01-01", "2026-12-31")).toEqual([]);
});

describe("changing a schedule", () => {
  const errorsOf = (fn: () => unknown) => {
    try {
      fn();
    } catch (error) {
      return (error as AppError).errors?.map((e) => `${e.param} ${e.code}`);
    }
    throw new Error("expected a refusal");
  };

  test("an anchor goes with its interval, kept while the interval is, dropped when it changes", () => {
    const weekly = changeSchedule(defaultPayoutSchedule, { interval: "weekly", weekly_anchor: "friday" });
    expect(weekly).toEqual({ ...defaultPayoutSchedule, interval: "weekly", weekly_anchor: "friday" });
    expect(changeSchedule(weekly, { minimum_amount: 5_000 })).toEqual({ ...weekly, minimum_amount: 5_000 });
    expect(changeSchedule(weekly, { interval: "monthly", monthly_anchor: 31, delay_days: 3 })).toEqual({
      interval: "monthly",
      weekly_anchor: null,
      monthly_anchor: 31,
      delay_days: 3,
      minimum_amount: 0,
    });
    expect(changeSchedule(weekly, { interval: "daily" })).toEqual(defaultPayoutSchedule);
  });

  test("a missing or misplaced anchor is refused, every problem named", () => {
    expect(errorsOf(() => changeSchedule(defaultPayoutSchedule, { interval: "weekly" }))).toEqual([
      "payout_schedule.weekly_anchor parameter_missing",
    ]);
    expect(
      errorsOf(() =>
        changeSchedule(defaultPayoutSchedule, { interval: "monthly", weekly_anchor: "monday", monthly_anchor: null }),
      ),
    ).toEqual([
      "payout_schedule.weekly_anchor parameter_not_allowed",
      "payout_schedule.monthly_anchor parameter_missing",
    ]);
    expect(errorsOf(() => changeSchedule(defaultPayoutSchedule, { monthly_anchor: 3 }))).toEqual([
      "payout_schedule.monthly_anchor parameter_not_allowed",
    ]);
  });
});
