import { describe, expect, test } from "vitest";

import { constantTimeEqual, digestSecret, generateSecretKey, hashPassword, verifyPassword } from "./secrets";

describe("secrets", () => {
  test("hashPassword then verifyPassword accepts the password and rejects another", async () => {
    const stored = await hashPassword("correct horse battery");
    expect(stored.startsWith("scrypt$")).toBe(true);
    expect(await verifyPassword("correct horse battery", stored)).toBe(true);
    expect(await verifyPassword("correct horse batterz", stored)).toBe(false);
  });
  test("verifyPassword rejects a malformed stored hash", async () => {
    expect(await verifyPassword("x", "plain")).toBe(false);
  });
  test("digestSecret is stable and hex", () => {
    expect(digestSecret("abc")).toBe(digestSecret("abc"));
    expect(digestSecret("abc")).toMatch(/^[0-9a-f]{64}$/);
  });
  test("constantTimeEqual", () => {
    expect(constantTimeEqual("abc", "abc")).toBe(true);
    expect(constantTimeEqual("abc", "abd")).toBe(false);
    expect(constantTimeEqual("abc", "abcd")).toBe(false);
  });
  test("secret keys say sandbox or live", () => {
    expect(generateSecretKey(false)).toMatch(/^sk_test_[0-9A-Za-z]{48}$/);
    expect(generateSecretKey(true)).toMatch(/^sk_live_/);
  });
});
