import type { MiddlewareHandler } from "hono";
import { AppError } from "../../errors";
import type { AppEnv } from "../context";
import { getConnInfoAddress } from "./conn-info";
import { principalScope } from "../../auth/principal";

/**
 * Token bucket per account, per onboarding session and per tokenizer key (principalScope; per
 * client address when unauthenticated): `perSecond` requests a
 * second with bursts up to the same number. In-process: with several instances each enforces its
 * own share, which is the documented behaviour (docs/decisions.md).
 */
export function rateLimit(perSecond: number): MiddlewareHandler<AppEnv> {
  const buckets = new Map<string, { tokens: number; at: number }>();
  let lastSweep = Date.now();
  return async (c, next) => {
    const now = Date.now();
    if (now - lastSweep > 60_000) {
      for (const [key, bucket] of buckets) if (now - bucket.at > 60_000) buckets.delete(key);
      lastSweep = now;
    }
    const principal = c.get("principal");
    const key = principal ? principalScope(principal) : `ip:${getConnInfoAddress(c)}`;
    let bucket = buckets.get(key);
    if (!bucket) {
      bucket = { tokens: perSecond, at: now };
      buckets.set(key, bucket);
    } else {
      bucket.tokens = Math.min(perSecond, bucket.tokens + ((now - bucket.at) / 1000) * perSecond);
      bucket.at = now;
    }
    if (bucket.tokens < 1) {
      const retryAfter = Math.max(1, Math.ceil((1 - bucket.tokens) / perSecond));
      throw new AppError("rate_limited", `Too many requests: the limit is ${perSecond} per second`, { retryAfterSeconds: retryAfter });
    }
    bucket.tokens -= 1;
    return next();
  };
}

/**
 * Failed authentication per client address: after `perMinute` failures in a minute, requests from
 * that address are refused (429) before any credential is looked up, so keys and passwords cannot
 * be guessed at full speed and a flood of bad credentials costs the database nothing.
 */
export function authFailureLimit(perMinute = 60) {
  const failures = new Map<string, number[]>();
  const recent = (address: string, now: number) => (failures.get(address) ?? []).filter((t) => now - t < 60_000);
  return {
    check(address: string) {
      const now = Date.now();
      const times = recent(address, now);
      if (times.length >= perMinute) {
        throw new AppError("rate_limited", "Too many requests with wrong credentials from this address", {
          retryAfterSeconds: Math.max(1, Math.ceil((times[0]! + 60_000 - now) / 1000)),
        });
      }
    },
    fail(address: string) {
      const now = Date.now();
      const times = recent(address, now);
      times.push(now);
      failures.delete(address);
      failures.set(address, times);
      if (failures.size > 50_000) failures.delete(failures.keys().next().value!);
    },
  };
}
