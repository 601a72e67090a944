import { describe, expect, test } from "vitest";

import { clock } from "./clock";
import { atTime } from "./clock-scope";

describe("the one clock", () => {
  test("is the real time outside a frozen scope", () => {
    const before = Date.now();
    const read = clock.ms();
    expect(read).toBeGreaterThanOrEqual(before);
    expect(read).toBeLessThanOrEqual(Date.now());
  });

  test("answers the frozen time inside atTime, through awaits, and each concurrent scope its own", async () => {
    const a = new Date("2030-01-15T10:00:00Z");
    const b = new Date("2031-06-01T00:00:00Z");
    const read = async (at: Date) =>
      atTime(at, async () => {
        const first = clock.now().toISOString();
        await new Promise((resolve) => setTimeout(resolve, 5));
        return [first, clock.now().toISOString(), clock.ms()];
      });
    const [ra, rb] = await Promise.all([read(a), read(b)]);
    expect(ra).toEqual([a.toISOString(), a.toISOString(), a.getTime()]);
    expect(rb).toEqual([b.toISOString(), b.toISOString(), b.getTime()]);
    // A copy each time: a caller that changes the Date it got changes nothing for the next.
    atTime(a, () => {
      clock.now().setUTCFullYear(1999);
      expect(clock.now().toISOString()).toBe(a.toISOString());
    });
  });
});
