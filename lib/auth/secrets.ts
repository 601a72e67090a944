import { createHash, randomBytes, scrypt as scryptCb, timingSafeEqual } from "node:crypto";
import { promisify } from "node:util";

import { env } from "../env";
import { AppError } from "../errors";
import { randomBase62 } from "../ids";

const scrypt = promisify(scryptCb) as (
  password: string,
  salt: Buffer,
  keylen: number,
  options: object,
) => Promise<Buffer>;

/**
 * The stored digest of a random secret: API key secrets (48 random base62 characters), and the
 * tokens of onboarding links, login links, home sessions and client secrets. A fast digest is enough
 * (nothing to guess from a dictionary); none is stored in clear.
 */
export function digestSecret(secret: string): string {
  return createHash("sha256").update(secret).digest("hex");
}

export function constantTimeEqual(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  // Compare equal-length buffers so the time does not reveal the length either.
  if (left.length !== right.length) {
    timingSafeEqual(left, left);
    return false;
  }
  return timingSafeEqual(left, right);
}

export function generateSecretKey(live: boolean, kind: "standard" | "restricted" = "standard"): string {
  return `${kind === "restricted" ? "rk" : "sk"}_${live ? "live" : "test"}_${randomBase62(48)}`;
}

/** A publishable key (the tokenizer's, and a merchant's `pub_api_key`): safe in a browser, it only tokenizes. */
export function newPublishableKey(live: boolean): string {
  return `pk_${live ? "live" : "test"}_${randomBase62(32)}`;
}
const publishableKeyFormat = /^pk_(test|live)_[0-9A-Za-z]{32}$/;
export const isPublishableKey = (value: string) => publishableKeyFormat.test(value);

export function generateAccountSid(): string {
  return `AC${randomBytes(16).toString("hex")}`;
}

/**
 * OWASP's scrypt advice (2^17 work): N=2^14, r=8, p=5 is its equivalent with 16 MiB of memory
 * instead of 128. Hashes made with older parameters still verify and are upgraded at sign-in.
 */
const STANDARD_SCRYPT = { N: 16384, r: 8, p: 5 } as const;
/** PASSWORD_HASH_COST=test (the test suites only; refused in production): 1 MiB and one pass, about 1/80 of the work. */
const TEST_SCRYPT = { N: 1024, r: 8, p: 1 } as const;
/** The parameters new hashes are made with (and older, weaker hashes upgraded to at sign-in). */
export const passwordHashParams = env.PASSWORD_HASH_COST === "test" ? TEST_SCRYPT : STANDARD_SCRYPT;
const SCRYPT = { ...passwordHashParams, maxmem: 64 * 1024 * 1024 };

/**
 * scrypt runs on libuv's small thread pool, which DNS lookups (webhooks) and file I/O share: at most
 * two hashes run at once and at most 64 wait; beyond that a sign-in is refused for a second (429),
 * so a flood of attempts cannot stall the rest of the process.
 */
const HASH_SLOTS = 2;
const HASH_QUEUE = 64;
let running = 0;
const waiting: (() => void)[] = [];
async function withHashSlot<T>(work: () => Promise<T>): Promise<T> {
  if (running >= HASH_SLOTS) {
    if (waiting.length >= HASH_QUEUE)
      throw new AppError("rate_limited", "Too many sign-ins at once; try again in a moment", { retryAfterSeconds: 1 });
    await new Promise<void>((resolve) => waiting.push(resolve));
  } else running++;
  try {
    return await work();
  } finally {
    const next = waiting.shift();
    if (next) next();
    else running--;
  }
}

/** Whether a stored hash was made with weaker parameters than today's (then it is upgraded at sign-in). */
export function needsRehash(stored: string): boolean {
  const [scheme, n, r, p] = stored.split("$");
  return scheme !== "scrypt" || Number(n) * Number(r) * Number(p) < SCRYPT.N * SCRYPT.r * SCRYPT.p;
}

/** Passwords: scrypt with a random salt, stored as `scrypt$N$r$p$salt$hash`. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const hash = await withHashSlot(() => scrypt(password, salt, 32, SCRYPT));
  return `scrypt$${SCRYPT.N}$${SCRYPT.r}$${SCRYPT.p}$${salt.toString("base64")}$${hash.toString("base64")}`;
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, hash] = stored.split("$");
  if (scheme !== "scrypt" || !n || !r || !p || !salt || !hash) return false;
  const expected = Buffer.from(hash, "base64");
  const actual = await withHashSlot(() =>
    scrypt(password, Buffer.from(salt, "base64"), expected.length, {
      N: Number(n),
      r: Number(r),
      p: Number(p),
      maxmem: SCRYPT.maxmem,
    }),
  );
  return timingSafeEqual(actual, expected);
}

// A hash of a random password, compared against when the e-mail is unknown, so that a wrong
// e-mail and a wrong password take the same time.
let decoy: Promise<string> | undefined;
export function decoyPasswordHash() {
  decoy ??= hashPassword(randomBase62(24));
  return decoy;
}
