import { expect, test } from "vitest";

import { abaChecksumValid } from "./aba";

test.each([
  ["021000021", true],
  ["011000015", true],
  ["121000358", true],
  ["021000022", false],
  ["12345678", false],
  ["abcdefghi", false],
  // Digits in every weighted position (a sign or weight changed in the sum breaks these).
  ["322271627", true],
  ["026009593", true],
  ["322271626", false],
  ["026009594", false],
  // Exactly nine digits: not ten, not with anything around them.
  ["0210000210", false],
  ["1021000021", false],
  [" 02100002", false],
  ["02100002x", false],
  ["", false],
])("abaChecksumValid(%s) is %s", (r, ok) => {
  expect(abaChecksumValid(r)).toBe(ok);
});
