import { describe, expect, test } from "vitest";

import { must } from "./must";

describe("must", () => {
  test("hands back a present value unchanged, falsy ones included", () => {
    expect(must(0, "a count")).toBe(0);
    expect(must("", "a name")).toBe("");
    expect(must(false, "a flag")).toBe(false);
    const row = { id: "mer_1" };
    expect(must(row, "a row")).toBe(row);
  });

  test("throws, naming what was missing, for undefined and null", () => {
    expect(() => must(undefined, "the posting just written")).toThrow(
      "Expected the posting just written; there was none",
    );
    expect(() => must(null, "a card token's brand")).toThrow("Expected a card token's brand; there was none");
  });
});
