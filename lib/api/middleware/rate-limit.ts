import type { MiddlewareHandler } from "hono";

import { principalScope } from "../../auth/principal";
import { AppError } from "../../errors";
import { type LimitStore, limitStore } from "../../limits";
import type { AppEnv } from "../context";
import { getConnInfoAddress } from "./conn-info";

/**
 * Requests per second per account, per onboarding session and per tokenizer key (principalScope;
 * per client address when unauthenticated), counted in the limit store (lib/limits.ts): this
 * process's memory, or Redis shared by every instance when REDIS_URL is set.
 */
export function rateLimit(perSecond: number, store: LimitStore = limitStore()): MiddlewareHandler<AppEnv> {
  const requests = store.limit("requests", perSecond, 1);
  return async (c, next) => {
    const principal = c.get("principal");
    const key = principal ? principalScope(principal) : `ip:${getConnInfoAddress(c)}`;
    const wait = await requests.hit(key);
    if (wait !== null)
      throw new AppError("rate_limited", `Too many requests: the limit is ${perSecond} per second`, {
        retryAfterSeconds: wait,
      });
    return next();
  };
}

/**
 * Failed authentication per client address and per presented key id. Valid credentials are never
 * refused: the lookup is cheap (an API key is one indexed query and a digest, a token a signature),
 * so every request is authenticated first and only a failure is counted and answered. Past
 * `perMinute` failures in a minute from one address, its wrong credentials answer 429 instead of 401;
 * past the same budget for one key id (an account sid, a publishable key), a wrong secret for that
 * key answers 429 from any address. So a flood of bad keys from one NAT, or a stale deployment still
 * sending a rotated key, never locks out the ISV's valid key from that address, and guessing is slow.
 */
export function authFailureLimit(perMinute = 60) {
  const failures = () => limitStore().limit("auth-failures", perMinute, 60);
  const keyFailures = () => limitStore().limit("auth-failures-key", perMinute, 60);
  return {
    /** A failed authentication from `address` naming `keyId`: counted, then 429 when either is over its budget. */
    async fail(address: string, keyId?: string) {
      const [addressWait, keyWait] = await Promise.all([
        failures().hit(address),
        keyId ? keyFailures().hit(keyId) : null,
      ]);
      if (addressWait !== null)
        throw new AppError("rate_limited", "Too many requests with wrong credentials from this address", {
          retryAfterSeconds: addressWait,
        });
      if (keyWait !== null && keyWait !== undefined)
        throw new AppError("rate_limited", "Too many requests with a wrong secret for this key", {
          retryAfterSeconds: keyWait,
        });
    },
  };
}

/**
 * The tokenizer's second budget (card testing, docs/reference.md section 10): besides the requests per
 * second of each publishable key (rateLimit), one client address makes at most `perMinute` tokens a
 * minute, whichever merchants' keys it scraped from pay pages.
 */
export function tokenizerBudget(perMinute: number, store: LimitStore = limitStore()): MiddlewareHandler<AppEnv> {
  const tokens = store.limit("tokens-address", perMinute, 60);
  return async (c, next) => {
    const wait = await tokens.hit(getConnInfoAddress(c));
    if (wait !== null)
      throw new AppError("rate_limited", `Too many cards from this address: the limit is ${perMinute} a minute`, {
        retryAfterSeconds: wait,
      });
    return next();
  };
}
