import { describe, expect, test } from "vitest";

import { createId, randomBase62 } from "./ids";

describe("createId", () => {
  test("prefixes and 22 base62 characters", () => {
    expect(createId("mer")).toMatch(/^mer_[0-9A-Za-z]{22}$/);
  });
  test("does not repeat", () => {
    const ids = new Set(Array.from({ length: 5000 }, () => createId("evt")));
    expect(ids.size).toBe(5000);
  });
  test("randomBase62 gives the asked length", () => {
    expect(randomBase62(48)).toHaveLength(48);
  });
});
