import { describe, expect, test } from "vitest";

import { contrastRatio, textOn } from "./contrast";

describe("contrast", () => {
  test("black on white is 21:1", () => expect(contrastRatio("#000000", "#ffffff")).toBeCloseTo(21, 0));
  test.each([
    ["#1d4ed8", "#ffffff"],
    ["#fde047", "#0f172a"],
    ["#fff", "#0f172a"],
    ["#000", "#ffffff"],
  ])("text on %s is %s", (bg, fg) => {
    expect(textOn(bg)).toBe(fg);
  });
  test("the chosen text colour always reaches 4.5:1 or the best possible", () => {
    for (const bg of ["#777777", "#808080", "#ff0000", "#00ff00", "#0000ff"])
      expect(contrastRatio(bg, textOn(bg))).toBeGreaterThanOrEqual(3.9);
  });
});
