import { principalScope } from "../../auth/principal";
import type { MiddlewareHandler } from "hono";
import { and, eq, lt } from "drizzle-orm";
import { createHash } from "node:crypto";
import { AppError } from "../../errors";
import type { AppEnv } from "../context";
import { idempotencyKeys } from "../../db/schema";

const TTL_MS = 24 * 60 * 60 * 1000;

/**
 * `Idempotency-Key` on any POST (CONTRACT.md section 3). The key row is claimed with an insert
 * before the work runs, so two concurrent requests with one key cannot both run: the loser gets
 * 409 `idempotency_key_in_use`. The first answer (status and body) is stored and replayed. A 5xx
 * releases the key so that the client can retry.
 */
export const idempotency: MiddlewareHandler<AppEnv> = async (c, next) => {
  const key = c.req.header("idempotency-key");
  const principal = c.get("principal");
  // The tokenizer's card bodies are never kept, not even as a digest.
  if (c.req.method !== "POST" || key === undefined || !principal || principal.kind === "publishable") return next();
  if (key.length < 1 || key.length > 255) {
    throw new AppError("parameter_invalid", "Idempotency-Key must be 1 to 255 characters", { param: "Idempotency-Key" });
  }
  const db = c.var.db;
  // Keys live in the caller's namespace: a merchant's session never collides with its ISV.
  const accountId = principalScope(principal);
  const body = await c.req.json().catch(() => ({}));
  const digest = createHash("sha256")
    .update(`${c.req.method} ${c.req.path}\n${stableStringify(body)}`)
    .digest("hex");

  for (let attempt = 0; attempt < 2; attempt++) {
    const inserted = await db
      .insert(idempotencyKeys)
      .values({ accountId, key, method: c.req.method, path: c.req.path, requestDigest: digest })
      .onConflictDoNothing()
      .returning({ key: idempotencyKeys.key });
    if (inserted.length > 0) {
      await next();
      const status = c.res.status;
      if (status >= 500) {
        await db.delete(idempotencyKeys).where(and(eq(idempotencyKeys.accountId, accountId), eq(idempotencyKeys.key, key)));
      } else {
        const stored = await c.res
          .clone()
          .json()
          .catch(() => null);
        await db
          .update(idempotencyKeys)
          .set({ responseStatus: status, responseBody: stored })
          .where(and(eq(idempotencyKeys.accountId, accountId), eq(idempotencyKeys.key, key)));
      }
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
        .where(and(eq(idempotencyKeys.accountId, accountId), eq(idempotencyKeys.key, key), lt(idempotencyKeys.createdAt, new Date(Date.now() - TTL_MS))));
      continue;
    }
    if (existing.requestDigest !== digest) {
      throw new AppError("idempotency_key_reused", "This Idempotency-Key was used with a different request within the last 24 hours; use a new key", {
        param: "Idempotency-Key",
      });
    }
    if (existing.responseStatus === null) {
      throw new AppError("idempotency_key_in_use", "A request with this Idempotency-Key is still being processed; retry shortly", { param: "Idempotency-Key" });
    }
    c.header("Idempotent-Replayed", "true");
    return c.json(existing.responseBody as object, existing.responseStatus as 200);
  }
  throw new AppError("idempotency_key_in_use", "A request with this Idempotency-Key is still being processed; retry shortly", { param: "Idempotency-Key" });
};

/** JSON with object keys sorted, so that the same body in another key order is the same request. */
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
