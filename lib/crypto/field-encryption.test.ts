import { describe, expect, test } from "vitest";

import { decryptBytes, decryptField, encryptBytes, encryptField, isEncrypted, mask } from "./field-encryption";

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
  test("bytes (a document): round trip, nothing in the clear, a changed byte rejected", () => {
    const plain = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.from("JFIF document body ".repeat(50))]);
    const sealed = encryptBytes(plain);
    expect(sealed.length).toBe(plain.length + 37);
    expect(sealed.includes(Buffer.from("document body"))).toBe(false);
    expect(decryptBytes(sealed)).toEqual(plain);
    expect(encryptBytes(plain).equals(sealed)).toBe(false);
    const tampered = Buffer.from(sealed);
    tampered[50] = tampered[50]! ^ 1;
    expect(() => decryptBytes(tampered)).toThrow();
    const unknownKey = Buffer.from(sealed);
    unknownKey.write("zzzzzzzz", 1, "ascii");
    expect(() => decryptBytes(unknownKey)).toThrow(/key zzzzzzzz unknown/);
  });
});
