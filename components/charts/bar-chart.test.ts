import { describe, expect, test } from "vitest";

import { ticksOf } from "./bar-chart";

describe("ticksOf", () => {
  test("the last tick is at or above the highest value, the first at or below the lowest", () => {
    expect(ticksOf(0, 4_900)).toEqual([0, 2_000, 4_000, 6_000]);
    expect(ticksOf(0, 4_000)).toEqual([0, 1_000, 2_000, 3_000, 4_000]);
    expect(ticksOf(-1_500, 5_000)).toEqual([-2_000, 0, 2_000, 4_000, 6_000]);
    expect(ticksOf(0, 1)).toEqual([0, 1]);
  });
  test("every value of random ranges lies within the ticks", () => {
    for (let i = 0; i < 500; i++) {
      const low = -Math.floor(Math.random() * 100_000) * (i % 2);
      const high = Math.floor(Math.random() * 10_000_000) + 1;
      const ticks = ticksOf(low, high);
      expect(ticks[0]).toBeLessThanOrEqual(low);
      expect(ticks.at(-1)).toBeGreaterThanOrEqual(high);
      expect(ticks.length).toBeLessThanOrEqual(7);
    }
  });
});
