import { describe, expect, test } from "vitest";

import { periodStart } from "./period";

describe("periodStart", () => {
  test("the first instant of the month, in UTC", () => {
    expect(periodStart("2026-11").toISOString()).toBe("2026-11-01T00:00:00.000Z");
    expect(periodStart("2026-01").toISOString()).toBe("2026-01-01T00:00:00.000Z");
    expect(periodStart("2024-02").toISOString()).toBe("2024-02-01T00:00:00.000Z");
    expect(periodStart("2026-12").toISOString()).toBe("2026-12-01T00:00:00.000Z");
  });

  test("anything that is not a period is an invalid date, never another month", () => {
    expect(Number.isNaN(periodStart("").getTime())).toBe(true);
    expect(Number.isNaN(periodStart("2026").getTime())).toBe(true);
    expect(Number.isNaN(periodStart("soon").getTime())).toBe(true);
  });
});
