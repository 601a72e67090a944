import { describe, expect, test } from "vitest";

import { dueRelease, holdFor, nextReleaseOf, releaseDayOf } from "./rules";

const rolling = {
  type: "rolling",
  percentBps: 1_000,
  holdDays: 90,
  amount: null,
  releaseOn: null,
  status: "active",
} as const;
const fixed = {
  type: "fixed",
  percentBps: null,
  holdDays: null,
  amount: 12_000,
  releaseOn: null,
  status: "active",
} as const;
const at = (iso: string) => new Date(iso);

describe("holdFor", () => {
  test("a rolling reserve holds its percent of what the settlement added, rounded down, never more than is drawable", () => {
    expect(holdFor(rolling, { held: 0 }, 4_825, 4_825)).toBe(482);
    expect(holdFor({ ...rolling, percentBps: 250 }, { held: 0 }, 9_999, 9_999)).toBe(249);
    expect(holdFor(rolling, { held: 0 }, 10_000, 300)).toBe(300);
    expect(holdFor(rolling, { held: 0 }, -5_000, 10_000)).toBe(0);
    expect(holdFor(rolling, { held: 0 }, 10_000, -1)).toBe(0);
  });
  test("a fixed reserve holds what it lacks of its amount; a released one nothing", () => {
    expect(holdFor(fixed, { held: 0 }, 0, 9_680)).toBe(9_680);
    expect(holdFor(fixed, { held: 9_680 }, 4_825, 4_825)).toBe(2_320);
    expect(holdFor(fixed, { held: 12_000 }, 4_825, 4_825)).toBe(0);
    expect(holdFor({ ...fixed, status: "released" }, { held: 0 }, 0, 9_680)).toBe(0);
  });
});

describe("releases", () => {
  const holds = [
    { amount: 968, at: at("2027-03-01T00:00:05Z"), left: 968 },
    { amount: 482, at: at("2027-03-02T00:00:05Z"), left: 482 },
  ];
  const ledger = { held: 1_450, released: 0, holds };
  const three = { ...rolling, holdDays: 3 };
  test("a hold comes back hold_days calendar days after it was made", () => {
    expect(releaseDayOf(at("2027-03-01T00:00:05Z"), 3)).toBe("2027-03-04");
    expect(releaseDayOf(at("2027-12-30T23:59:59Z"), 3)).toBe("2028-01-02");
  });
  test("what is due on a day: the holds whose day came, what is left of them", () => {
    expect(dueRelease(three, ledger, at("2027-03-03T23:59:59Z"))).toBe(0);
    expect(dueRelease(three, ledger, at("2027-03-04T00:00:05Z"))).toBe(968);
    expect(dueRelease(three, ledger, at("2027-03-09T00:00:00Z"))).toBe(1_450);
    const partly = { held: 1_000, released: 450, holds: [{ ...holds[0]!, left: 518 }, holds[1]!] };
    expect(dueRelease(three, partly, at("2027-03-04T00:00:05Z"))).toBe(518);
    expect(nextReleaseOf(three, partly)).toEqual({ amount: 518, date: "2027-03-04" });
  });
  test("a fixed reserve: all on its release_on, nothing before; none without one", () => {
    const dated = { ...fixed, releaseOn: "2027-06-10" };
    const held = { held: 5_000, released: 0, holds: [] };
    expect(dueRelease(dated, held, at("2027-06-09T23:00:00Z"))).toBe(0);
    expect(dueRelease(dated, held, at("2027-06-10T00:00:05Z"))).toBe(5_000);
    expect(nextReleaseOf(dated, held)).toEqual({ amount: 5_000, date: "2027-06-10" });
    expect(nextReleaseOf(fixed, held)).toBeNull();
    expect(dueRelease(fixed, held, at("2099-01-01T00:00:00Z"))).toBe(0);
  });
});
