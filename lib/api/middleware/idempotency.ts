import { createHash } from "node:crypto";

import type { SQL } from "drizzle-orm";
import { and, eq, isNull, lt } from "drizzle-orm";
import type { Context, MiddlewareHandler, Next } from "hono";

import { principalScope } from "../../auth/principal";
import { decryptField, encryptField, isEncrypted } from "../../crypto/field-encryption";
import { allOf } from "../../db/conditions";
import { idempotencyKeys } from "../../db/schema";
import { type Db } from "../../db/types";
import { env } from "../../env";
import { AppError } from "../../errors";
import type { AppEnv } from "../context";

const TTL_MS = 24 * 60 * 60 * 1000;

/**
 * `Idempotency-Key` on any POST (docs/reference.md section 3). The key row is claimed with an insert
 * before the work runs, so two concurrent requests with one key cannot both run: the loser gets
 * 409 `idempotency_key_in_use`. The first answer (status and body) is stored, in the request's
 * own transaction (runRecorded), and replayed. A 5xx rolls the request back and releases the key
 * so that the client can retry; so does a claim left unanswered for
 * IDEMPOTENCY_CLAIM_TIMEOUT_MS (its instance died), taken over by the next retry.
 */
export const idempotency: MiddlewareHandler<AppEnv> = async (c, next) => {
  const key = c.req.header("idempotency-key");
  const principal = c.get("principal");
  // The tokenizer's card bodies are never kept, not even as a digest.
  if (c.req.method !== "POST" || key === undefined || !principal || principal.kind === "publishable") return next();
  if (key.length < 1 || key.length > 255) {
    throw new AppError("parameter_invalid", "Idempotency-Key must be 1 to 255 characters", {
      param: "Idempotency-Key",
    });
  }
  const db = c.get("db");
  // Keys live in the caller's namespace: a merchant's session never collides with its ISV.
  const accountId = principalScope(principal);
  // An upload (multipart) is its bytes; every other body its JSON, keys in a stable order.
  const multipart = (c.req.header("content-type") ?? "").toLowerCase().startsWith("multipart/form-data");
  const hash = createHash("sha256").update(`${c.req.method} ${c.req.path}\n`);
  if (multipart) hash.update(Buffer.from(await c.req.arrayBuffer()));
  else hash.update(stableStringify(await c.req.json().catch(() => ({}))));
  const digest = hash.digest("hex");

  // On the embedded database this process is the only one: a request with a key still running
  // here is refused at once (PGlite runs one transaction at a time, so a second claim would wait
  // for the first request's transaction, not see it in flight).
  const local = c.get("handle").kind === "pglite" ? `${accountId}\n${key}` : null;
  const running = local === null ? undefined : inFlight.get(local);
  if (running !== undefined) {
    if (running !== digest) throw keyReused();
    throw keyInUse();
  }
  if (local !== null) inFlight.set(local, digest);
  try {
    return await claimAndRun(c, next, db, accountId, key, digest);
  } finally {
    if (local !== null) inFlight.delete(local);
  }
};

const inFlight = new Map<string, string>();

const keyInUse = () =>
  new AppError(
    "idempotency_key_in_use",
    "A request with this Idempotency-Key is still being processed; retry shortly",
    { param: "Idempotency-Key" },
  );
const keyReused = () =>
  new AppError(
    "idempotency_key_reused",
    "This Idempotency-Key was used with a different request within the last 24 hours; use a new key",
    {
      param: "Idempotency-Key",
    },
  );

async function claimAndRun(
  c: Context<AppEnv>,
  next: Next,
  db: Db,
  accountId: string,
  key: string,
  digest: string,
): Promise<Response | void> {
  for (let attempt = 0; attempt < 2; attempt++) {
    const inserted = await db
      .insert(idempotencyKeys)
      .values({ accountId, key, method: c.req.method, path: c.req.path, requestDigest: digest })
      .onConflictDoNothing()
      .returning({ key: idempotencyKeys.key });
    if (inserted.length > 0) {
      const claim = allOf(eq(idempotencyKeys.accountId, accountId), eq(idempotencyKeys.key, key));
      if (callsProcessor(c.req.path)) {
        c.set("requestKey", createHash("sha256").update(`${accountId}\n${key}`).digest("hex"));
        await runInSteps(c, next, db, claim);
      } else await runRecorded(c, next, db, claim);
      return;
    }
    const [existing] = await db
      .select()
      .from(idempotencyKeys)
      .where(and(eq(idempotencyKeys.accountId, accountId), eq(idempotencyKeys.key, key)));
    if (!existing) continue; // released between our insert and select: try to claim again
    if (Date.now() - existing.createdAt.getTime() > TTL_MS) {
      await db
        .delete(idempotencyKeys)
        .where(
          and(
            eq(idempotencyKeys.accountId, accountId),
            eq(idempotencyKeys.key, key),
            lt(idempotencyKeys.createdAt, new Date(Date.now() - TTL_MS)),
          ),
        );
      continue;
    }
    if (existing.requestDigest !== digest) {
      throw keyReused();
    }
    if (
      existing.responseStatus === null &&
      Date.now() - existing.createdAt.getTime() > env.IDEMPOTENCY_CLAIM_TIMEOUT_MS
    ) {
      // Claimed and never answered: the instance that took it died mid-request (no request runs
      // this long). The retry takes the key over and runs the request.
      await db
        .delete(idempotencyKeys)
        .where(
          and(
            eq(idempotencyKeys.accountId, accountId),
            eq(idempotencyKeys.key, key),
            isNull(idempotencyKeys.responseStatus),
            lt(idempotencyKeys.createdAt, new Date(Date.now() - env.IDEMPOTENCY_CLAIM_TIMEOUT_MS)),
          ),
        );
      continue;
    }
    if (existing.responseStatus === null) {
      throw keyInUse();
    }
    c.header("Idempotent-Replayed", "true");
    return c.json(openStoredAnswer(existing.responseBody), existing.responseStatus as 200);
  }
  throw keyInUse();
}

/** JSON with object keys sorted, so that the same body in another key order is the same request. */
class ReleaseKey extends Error {}

/**
 * The requests that call a payment processor (docs/reference.md section 10, "Calls to the
 * processor"): a refund, a terminal's card. Their work commits in its own steps (the intent before
 * the call, the outcome after), never inside one transaction around the call.
 */
const processorCallingPaths = [
  /^\/v1\/refunds$/,
  /^\/v1\/test_helpers\/terminals\/[^/]+\/present_card$/,
  // A saved method charged (section 21): POST /v1/charges, a subscription's first period, a past_due one's new method.
  /^\/v1\/charges$/,
  /^\/v1\/subscriptions(\/[^/]+)?$/,
];
const callsProcessor = (path: string) => processorCallingPaths.some((pattern) => pattern.test(path));

/**
 * A request that calls the processor: run outside any transaction (its intent must be committed
 * before the call), its answer stored after. The work keeps the key's digest (`requestKey`): if this
 * instance dies between the call and the answer, the claim lapses (IDEMPOTENCY_CLAIM_TIMEOUT_MS),
 * and the retry finds the work begun under the key and resumes it under the same processor
 * idempotency key, never doing it twice. A 5xx or a throw frees the key, as in runRecorded.
 */
async function runInSteps(c: Context<AppEnv>, next: Next, db: Db, claim: SQL) {
  try {
    await next();
    await storeAnswer(c, db, claim);
  } catch (error) {
    await db.delete(idempotencyKeys).where(claim);
    if (!(error instanceof ReleaseKey)) throw error;
  }
}

/**
 * Runs the request in one transaction with the storing of its answer: its writes and the answer
 * commit together, or neither does (a 5xx, a failed commit, an instance killed mid-request). So a
 * retry after a crash either replays the answer or runs a request that left nothing behind, and
 * nothing is created twice. The handler's own transactions become savepoints of this one.
 */
async function runRecorded(c: Context<AppEnv>, next: Next, db: Db, claim: SQL) {
  try {
    await db.transaction(async (tx) => {
      c.set("db", tx as unknown as Db);
      await next();
      await storeAnswer(c, tx as unknown as Db, claim);
    });
  } catch (error) {
    // Nothing of the request was kept: the key is free for the client's retry.
    c.set("db", db);
    await db.delete(idempotencyKeys).where(claim);
    if (!(error instanceof ReleaseKey)) throw error;
  } finally {
    c.set("db", db);
  }
}

/** The request's answer kept on its key for replays; a 5xx is not kept (ReleaseKey: the key is freed for a retry). */
async function storeAnswer(c: Context<AppEnv>, db: Db, claim: SQL) {
  const status = c.res.status;
  if (status >= 500) throw new ReleaseKey();
  const stored = await c.res
    .clone()
    .json()
    .catch(() => null);
  await db
    .update(idempotencyKeys)
    .set({ responseStatus: status, responseBody: sealAnswer(stored) })
    .where(claim);
}

/**
 * A stored answer is sealed like a sensitive field (AES-256-GCM under the current encryption key):
 * answers carry secrets shown once (an account session's client secret, a login link, a webhook's
 * signing secret, an onboarding link's url) and personal data, and the replay within 24 hours must
 * give the client what it missed without any of it readable in the database's files.
 */
function sealAnswer(body: unknown): { $enc: string; last4: string } | null {
  if (body === null) return null;
  return { ...encryptField(JSON.stringify(body)), last4: "" };
}

/** The answer as stored: sealed (sealAnswer), or as an earlier release kept it. */
function openStoredAnswer(stored: unknown): object {
  return isEncrypted(stored) ? (JSON.parse(decryptField(stored)) as object) : (stored as object);
}

export function stableStringify(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableStringify).join(",")}]`;
  if (value && typeof value === "object") {
    const entries = Object.keys(value as object)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${stableStringify((value as Record<string, unknown>)[k])}`);
    return `{${entries.join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}
