import { describe, expect, test } from "vitest";

import { type OverviewDay, periodOf, periodStarts } from "./overview";

const day = (date: string, volume: number): OverviewDay => ({
  day: date,
  volume,
  payments: volume > 0 ? 1 : 0,
  refunds: 0,
  refundCount: 0,
  disputes: 0,
  newMerchants: 0,
  linksOpened: 0,
  submitted: 0,
  approved: 0,
});

describe("the overview's periods", () => {
  test("today, this week (from Monday) and this month start at UTC midnights", () => {
    // Sunday 2026-11-29 23:59 UTC: the week began Monday the 23rd, the month on the 1st.
    const sunday = periodStarts(new Date("2026-11-29T23:59:59.999Z"));
    expect(sunday.today.toISOString()).toBe("2026-11-29T00:00:00.000Z");
    expect(sunday.week.toISOString()).toBe("2026-11-23T00:00:00.000Z");
    expect(sunday.month.toISOString()).toBe("2026-11-01T00:00:00.000Z");
    // A Monday is its own week's first day; the 1st its month's.
    const monday = periodStarts(new Date("2026-06-01T00:00:00.000Z"));
    expect(monday.today.toISOString()).toBe("2026-06-01T00:00:00.000Z");
    expect(monday.week.toISOString()).toBe("2026-06-01T00:00:00.000Z");
    expect(monday.month.toISOString()).toBe("2026-06-01T00:00:00.000Z");
    // A week that began in the month before.
    const tuesday = periodStarts(new Date("2026-12-01T10:00:00Z"));
    expect(tuesday.week.toISOString()).toBe("2026-11-30T00:00:00.000Z");
    expect(tuesday.month.toISOString()).toBe("2026-12-01T00:00:00.000Z");
  });

  test("a period is the sum of its days from its first, the day before left out", () => {
    const days = [day("2026-10-31", 700), day("2026-11-01", 100), day("2026-11-15", 20), day("2026-11-29", 3)];
    expect(periodOf(days, new Date("2026-11-01T00:00:00Z"))).toMatchObject({
      from: "2026-11-01",
      volume: 123,
      payments: 3,
    });
    expect(periodOf(days, new Date("2026-11-29T00:00:00Z"))).toMatchObject({ volume: 3, payments: 1 });
    expect(periodOf(days, new Date("2026-11-30T00:00:00Z"))).toMatchObject({ volume: 0, payments: 0 });
  });
});
