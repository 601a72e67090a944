import { createCipheriv, createDecipheriv, createHash, createHmac, randomBytes } from "node:crypto";

import type { Loose } from "../loose-json";
import { platformSecrets } from "../secrets-store";

// Sensitive fields (SSN, TIN, account numbers) are stored as AES-256-GCM envelopes. Each carries
// the id of its key, so keys can be rotated: new writes use the current key, older envelopes are
// read with the key they name (previous keys in ENCRYPTION_KEYS_PREVIOUS, comma-separated).
export type Encrypted = { $enc: string; last4: string };

type Key = { id: string; key: Buffer };
/** The ring, built once from the platform's keys (again if they changed: a test file's own data directory). */
let ring: { current: Key; byId: Map<string, Key>; from: object } | undefined;

function keyRing() {
  const secrets = platformSecrets();
  if (ring?.from === secrets) return ring;
  const toKey = (hex: string): Key => {
    const key = Buffer.from(hex, "hex");
    return { id: createHash("sha256").update(key).digest("hex").slice(0, 8), key };
  };
  const current = toKey(secrets.encryption_key);
  const previous = (process.env.ENCRYPTION_KEYS_PREVIOUS ?? "")
    .split(",")
    .filter((k) => /^[0-9a-f]{64}$/i.test(k))
    .map(toKey);
  ring = { current, byId: new Map([current, ...previous].map((k) => [k.id, k])), from: secrets };
  return ring;
}

/**
 * A keyed digest (HMAC-SHA256 under a key derived from the current encryption key): equal inputs
 * compare equal, and a digest of a short secret (an SSN) cannot be reversed by trying every value.
 */
export function keyedDigest(text: string): string {
  const key = createHash("sha256").update("keyed-digest:").update(keyRing().current.key).digest();
  return createHmac("sha256", key).update(text).digest("base64url");
}

export function encryptField(plain: string): Encrypted {
  const { current } = keyRing();
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", current.key, iv);
  const body = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
  const tag = cipher.getAuthTag();
  return {
    $enc: ["v1", current.id, iv.toString("base64url"), tag.toString("base64url"), body.toString("base64url")].join("."),
    last4: plain.slice(-4),
  };
}

export function decryptField(value: Encrypted): string {
  const [version, keyId, iv, tag, body] = value.$enc.split(".");
  const key = keyRing().byId.get(keyId ?? "");
  if (version !== "v1" || !key || !iv || !tag || body === undefined)
    throw new Error(`Cannot decrypt a field (key ${keyId ?? "?"} unknown)`);
  const decipher = createDecipheriv("aes-256-gcm", key.key, Buffer.from(iv, "base64url"));
  decipher.setAuthTag(Buffer.from(tag, "base64url"));
  return Buffer.concat([decipher.update(Buffer.from(body, "base64url")), decipher.final()]).toString("utf8");
}

export function isEncrypted(value: unknown): value is Encrypted {
  return typeof value === "object" && value !== null && typeof (value as Encrypted).$enc === "string";
}

/** "*****6789": the last four characters, the rest as `*`. */
export function mask(last4: string, length = 9): string {
  return "*".repeat(Math.max(length - last4.length, 4)) + last4;
}

/**
 * Bytes (an uploaded document) in the same AES-256-GCM envelope as the fields, kept binary: a
 * version byte, the key's id (8 ASCII characters), the IV (12), the tag (16), then the ciphertext.
 */
export function encryptBytes(plain: Buffer): Buffer {
  const { current } = keyRing();
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", current.key, iv);
  const body = Buffer.concat([cipher.update(plain), cipher.final()]);
  return Buffer.concat([Buffer.from([1]), Buffer.from(current.id, "ascii"), iv, cipher.getAuthTag(), body]);
}

export function decryptBytes(sealed: Buffer): Buffer {
  const keyId = sealed.subarray(1, 9).toString("ascii");
  const key = keyRing().byId.get(keyId);
  if (sealed[0] !== 1 || !key || sealed.length < 37) throw new Error(`Cannot decrypt a file (key ${keyId} unknown)`);
  const decipher = createDecipheriv("aes-256-gcm", key.key, sealed.subarray(9, 21));
  decipher.setAuthTag(sealed.subarray(21, 37));
  return Buffer.concat([decipher.update(sealed.subarray(37)), decipher.final()]);
}

/** An application with its sensitive values readable: for underwriting and verification only, never returned. */
export function decryptApplication(value: unknown): Loose {
  if (isEncrypted(value)) return decryptField(value);
  if (Array.isArray(value)) return value.map(decryptApplication);
  if (value && typeof value === "object")
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, decryptApplication(v)]));
  return value;
}

/** The id of the key new envelopes are written with (an operator compares it after a rotation). */
export const currentKeyId = () => keyRing().current.id;

const fieldKeyId = (value: Encrypted) => value.$enc.split(".")[1];

/**
 * Every envelope in a JSON value (an application, a webhook's secret) under the current key: those
 * written with an older key are decrypted and encrypted again. `changed` says whether any was.
 */
export function rewrapDeep<T>(value: T): { value: T; changed: boolean } {
  let changed = false;
  const walk = (v: unknown): unknown => {
    if (isEncrypted(v)) {
      if (fieldKeyId(v) === currentKeyId()) return v;
      changed = true;
      return { ...v, ...encryptField(decryptField(v)) };
    }
    if (Array.isArray(v)) return v.map(walk);
    if (v && typeof v === "object") return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x)]));
    return v;
  };
  const out = walk(value) as T;
  return { value: changed ? out : value, changed };
}

/** Bytes sealed by encryptBytes under the current key (null: they already are). */
export function rewrapBytes(sealed: Buffer): Buffer | null {
  if (sealed.subarray(1, 9).toString("ascii") === currentKeyId()) return null;
  return encryptBytes(decryptBytes(sealed));
}
