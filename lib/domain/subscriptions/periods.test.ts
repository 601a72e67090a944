import { describe, expect, it } from "vitest";

import { addIntervals, isHardDecline, nextRetryAt, periodOf } from "./periods";

const at = (iso: string) => new Date(iso);

describe("a subscription's calendar", () => {
  it("keeps the anchor's day of the month, or the month's last day", () => {
    const anchor = at("2027-01-31T09:30:00Z");
    expect(addIntervals(anchor, "month", 1).toISOString()).toBe("2027-02-28T09:30:00.000Z");
    expect(addIntervals(anchor, "month", 2).toISOString()).toBe("2027-03-31T09:30:00.000Z");
    expect(addIntervals(anchor, "month", 13).toISOString()).toBe("2028-02-29T09:30:00.000Z");
    expect(addIntervals(at("2028-02-29T00:00:00Z"), "year", 1).toISOString()).toBe("2029-02-28T00:00:00.000Z");
    expect(addIntervals(at("2027-12-15T00:00:00Z"), "month", 1).toISOString()).toBe("2028-01-15T00:00:00.000Z");
  });

  it("counts weeks as 7 days and periods from the anchor", () => {
    expect(addIntervals(at("2027-03-01T00:00:00Z"), "week", 2).toISOString()).toBe("2027-03-15T00:00:00.000Z");
    const third = periodOf(at("2027-01-31T00:00:00Z"), "month", 1, 3);
    expect([third.start.toISOString(), third.end.toISOString()]).toEqual([
      "2027-03-31T00:00:00.000Z",
      "2027-04-30T00:00:00.000Z",
    ]);
    const quarterly = periodOf(at("2027-01-15T00:00:00Z"), "month", 3, 2);
    expect(quarterly.start.toISOString()).toBe("2027-04-15T00:00:00.000Z");
  });
});

describe("dunning", () => {
  it("retries on days 1, 3, 5 and 7 after the first failure, then stops", () => {
    const first = at("2027-05-01T12:00:00Z");
    expect([1, 2, 3, 4].map((n) => nextRetryAt(first, n)?.toISOString())).toEqual([
      "2027-05-02T12:00:00.000Z",
      "2027-05-04T12:00:00.000Z",
      "2027-05-06T12:00:00.000Z",
      "2027-05-08T12:00:00.000Z",
    ]);
    expect(nextRetryAt(first, 5)).toBeNull();
  });

  it("never retries a hard decline, always a soft one", () => {
    expect(["stolen_card", "lost_card", "expired_card"].every(isHardDecline)).toBe(true);
    expect(["insufficient_funds", "processing_error", "card_declined"].some(isHardDecline)).toBe(false);
  });
});
