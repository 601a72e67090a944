import { expect, test } from "vitest";

import { mergeMetadata } from "./metadata";

test("metadata merges: keys given replace theirs, an empty string removes one, 20 keys at most", () => {
  expect(mergeMetadata({ a: "1", b: "2" }, { b: "", c: "3" })).toEqual({ a: "1", c: "3" });
  expect(mergeMetadata({ a: "1" }, undefined)).toEqual({ a: "1" });
  const twenty = Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`k${i}`, "v"]));
  expect(Object.keys(mergeMetadata(twenty, { k0: "w" }))).toHaveLength(20);
  expect(() => mergeMetadata(twenty, { extra: "x" })).toThrow("metadata must have at most 20 keys");
});
