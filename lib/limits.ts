import IORedis from "ioredis";
import { type RateLimiterAbstract, RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from "rate-limiter-flexible";

import { env } from "./env";
import { log } from "./log";

// Every counter that limits callers (requests per principal, wrong credentials per address,
// sign-ins per e-mail and address) lives in a limit store: this process's memory by default, or
// Redis when REDIS_URL is set, so that every instance behind a load balancer counts against one
// limit. If Redis stops answering, each instance falls back to its own memory (its own share)
// rather than refusing everyone or letting everyone through.

export type Limit = {
  /** Counts one hit on `key`; resolves the seconds to wait when the limit is spent (null: allowed). */
  hit(key: string): Promise<number | null>;
  /** The seconds to wait when the limit on `key` is already spent, without counting (null: allowed). */
  blocked(key: string): Promise<number | null>;
};

export type LimitStore = {
  kind: "memory" | "redis";
  /** A limit of `points` hits per `durationSeconds` per key, named `name` (its keys' prefix in Redis). */
  limit(name: string, points: number, durationSeconds: number): Limit;
  /** Resolves once Redis answers (at once for memory); until then each instance counts alone. */
  ready(): Promise<void>;
  /** Whether the store answers now (Redis: a PING within `timeoutMs`; memory: always). */
  ping(timeoutMs?: number): Promise<boolean>;
  close(): Promise<void>;
};

const waitOf = (res: unknown) =>
  res instanceof RateLimiterRes ? Math.max(1, Math.ceil(res.msBeforeNext / 1000)) : null;

/** A store of its own (the process's shared one is `limitStore()`): Redis at `redisUrl`, or memory. */
export function createLimitStore(options: { redisUrl?: string; prefix?: string } = {}): LimitStore {
  const prefix = options.prefix ?? "onb";
  let redis: IORedis | null = null;
  if (options.redisUrl) {
    redis = new IORedis(options.redisUrl, { enableOfflineQueue: false, maxRetriesPerRequest: 1 });
    let warned = false;
    redis.on("error", (error: Error) => {
      if (!warned) log.warn({ err: error }, "Redis unavailable: rate limits fall back to this instance's memory");
      warned = true;
    });
    redis.on("ready", () => {
      warned = false;
    });
  }
  const limits = new Map<string, Limit>();
  return {
    kind: redis ? "redis" : "memory",
    limit(name, points, durationSeconds) {
      const id = `${name}:${points}:${durationSeconds}`;
      const known = limits.get(id);
      if (known) return known;
      const keyPrefix = `${prefix}:${name}`;
      const memory = new RateLimiterMemory({ keyPrefix, points, duration: durationSeconds });
      const store: RateLimiterAbstract = redis
        ? new RateLimiterRedis({
            storeClient: redis,
            keyPrefix,
            points,
            duration: durationSeconds,
            insuranceLimiter: memory,
            rejectIfRedisNotReady: true,
          })
        : memory;
      const created: Limit = {
        async hit(key) {
          try {
            await store.consume(key);
            return null;
          } catch (res) {
            const wait = waitOf(res);
            if (wait === null) throw res;
            return wait;
          }
        },
        async blocked(key) {
          const res = await store.get(key);
          return res && res.consumedPoints >= points ? waitOf(res) : null;
        },
      };
      limits.set(id, created);
      return created;
    },
    ready: () => {
      const client = redis;
      return !client || client.status === "ready"
        ? Promise.resolve()
        : new Promise<void>((resolve) => client.once("ready", () => resolve()));
    },
    async ping(timeoutMs = 1000) {
      if (!redis) return true;
      if (redis.status !== "ready") return false;
      const timeout = new Promise<false>((resolve) => setTimeout(() => resolve(false), timeoutMs).unref());
      return Promise.race([
        redis.ping().then(
          (answer) => answer === "PONG",
          () => false,
        ),
        timeout,
      ]);
    },
    async close() {
      limits.clear();
      if (redis) await redis.quit().catch(() => redis.disconnect());
    },
  };
}

// One store per process, made on first use: the API and Next's bundled server code (dashboard
// sign-in) reach the same one through globalThis.
const holder = globalThis as { __onbLimitStore?: LimitStore };
export function limitStore(): LimitStore {
  return (holder.__onbLimitStore ??= createLimitStore({ redisUrl: env.REDIS_URL }));
}

/** Closes the process's store; the next `limitStore()` makes a new, empty one (the test suites, between files). */
export async function forgetLimitStore() {
  const store = holder.__onbLimitStore;
  delete holder.__onbLimitStore;
  await store?.close();
}
