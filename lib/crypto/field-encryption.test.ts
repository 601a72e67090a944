import { describe, expect, test } from "vitest";

import { decryptField, encryptField, isEncrypted, mask } from "./field-encryption";

describe("field encryption", () => {
  test("round-trips and never stores the plain value", () => {
    const enc = encryptField("401234567");
    expect(isEncrypted(enc)).toBe(true);
    expect(enc.$enc).not.toContain("401234567");
    expect(enc.last4).toBe("4567");
    expect(decryptField(enc)).toBe("401234567");
  });
  test("two encryptions of one value differ (random IV)", () => {
    expect(encryptField("123").$enc).not.toBe(encryptField("123").$enc);
  });
  test("a tampered envelope is rejected", () => {
    const enc = encryptField("000123456789");
    const parts = enc.$enc.split(".");
    parts[4] = Buffer.from("tampered").toString("base64url");
    expect(() => decryptField({ ...enc, $enc: parts.join(".") })).toThrow();
  });
  test("mask shows only the last four", () => {
    expect(mask("6789")).toBe("*****6789");
    expect(mask("6789", 12)).toBe("********6789");
  });
});
