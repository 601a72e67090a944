import { expect, test } from "vitest";
import { abaChecksumValid } from "./aba";

test.each([
  ["021000021", true],
  ["011000015", true],
  ["121000358", true],
  ["021000022", false],
  ["12345678", false],
  ["abcdefghi", false],
])("abaChecksumValid(%s) is %s", (r, ok) => {
  expect(abaChecksumValid(r)).toBe(ok);
});
