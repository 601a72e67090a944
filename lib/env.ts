import path from "node:path";

import { z } from "zod";

import { tokenizerOriginFor } from "./net/tokenizer-origin";

// The only reader of process.env. Everything else imports `env`.
const schema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  // No default on PostgreSQL (a deployment says which it is); the embedded database defaults to sandbox.
  APP_ENV: z.enum(["sandbox", "production"]).optional(),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().default("0.0.0.0"),
  // Unset: http://localhost:<PORT>.
  PUBLIC_BASE_URL: z.url().optional(),
  // The card frame's own origin (https://tokenizer.example.com); unset: the service's origin,
  // shared (production warns at start).
  TOKENIZER_ORIGIN: z.url().optional(),
  DATABASE_URL: z.string().min(1).optional(),
  DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(200).default(10),
  DATA_DIR: z.string().default("./data"),
  JWT_SECRET: z.string().min(32).optional(),
  ENCRYPTION_KEY: z
    .string()
    .regex(/^[0-9a-f]{64}$/i, "must be 64 hex characters (32 bytes)")
    .optional(),
  RATE_LIMIT_PER_SECOND: z.coerce.number().int().min(1).default(200),
  TOKENS_PER_ADDRESS_PER_MINUTE: z.coerce.number().int().min(1).default(60),
  /** Upload bodies one client address sends at once (lib/files/upload-gate.ts); a load test raises it. */
  UPLOADS_PER_CLIENT: z.coerce.number().int().min(1).default(2),
  /** Uploads a merchant makes in a day, refused ones included. */
  UPLOADS_PER_MERCHANT_PER_DAY: z.coerce.number().int().min(1).default(200),
  // The proxies in front (README, production layout): a hop count, or addresses/CIDRs; unset trusts none.
  TRUST_PROXY: z
    .string()
    .regex(
      /^\s*(\d+|((loopback|linklocal|uniquelocal|[0-9a-fA-F.:]+(\/\d{1,3})?)\s*(,\s*|$))+)\s*$/,
      "must be a number of hops, or addresses, CIDR ranges, loopback, linklocal or uniquelocal separated by commas",
    )
    .optional(),
  // The header the trusted proxies write the client's address in: X-Forwarded-For, or RFC 7239's Forwarded.
  FORWARDED_HEADER: z.enum(["x-forwarded-for", "forwarded"]).default("x-forwarded-for"),
  // Rate-limit counters shared by every instance (redis://host:6379/0); unset: each process counts alone.
  REDIS_URL: z.string().url().optional(),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  SMTP_URL: z.string().optional(),
  SMTP_FROM: z.string().default("onboarding@localhost"),
  // Webhook retry delays in ms after each failed try (docs/reference.md section 9); tests shorten them.
  WEBHOOK_RETRY_SCHEDULE_MS: z
    .string()
    .regex(/^\d+(,\d+)*$/)
    .default("5000,300000,1800000,7200000,18000000,36000000,36000000"),
  // 0 runs no background worker in the server process (run `npm run worker` separately).
  RUN_WORKER: z.enum(["0", "1"]).default("1"),
  // Webhook deliveries one process sends at once, and at most to one destination host / for one account.
  WEBHOOK_CONCURRENCY: z.coerce.number().int().min(1).max(1024).default(64),
  WEBHOOK_HOST_CONCURRENCY: z.coerce.number().int().min(1).max(1024).default(32),
  WEBHOOK_ACCOUNT_CONCURRENCY: z.coerce.number().int().min(1).max(1024).default(32),
  // An Idempotency-Key claimed by a request that never answered (its instance died) is free again after this long.
  IDEMPOTENCY_CLAIM_TIMEOUT_MS: z.coerce.number().int().min(1000).default(60_000),
  // How long a call to the payment processor may take before the platform stops waiting (the call stays
  // recorded as started; the recovery job asks the processor what it did).
  PROCESSOR_TIMEOUT_MS: z.coerce.number().int().min(100).max(29_000).default(15_000),
  // A running job whose worker went silent this long is claimed again (at-least-once).
  JOB_LEASE_MS: z.coerce.number().int().min(100).default(120_000),
  // 0 serves only the API (/v1, /docs, onboarding links): no Next pages, no build needed.
  SERVE_PAGES: z.enum(["0", "1"]).default("1"),
  // A terminal that has not read a card after this long offers the customer to pay on their phone.
  TERMINAL_CARD_TIMEOUT_SECONDS: z.coerce.number().int().min(1).max(900).default(60),
  // Sandbox webhooks may reach this machine's loopback; with "1" the ISV also reads the first 1 KB of
  // their answers. Default: "1" on the embedded database (a developer's own machine), "0" with
  // DATABASE_URL (a shared sandbox, whose loopback answers are not the ISV's to read).
  SANDBOX_WEBHOOK_LOOPBACK: z.enum(["0", "1"]).optional(),
  // Set to "0" to start without the seeded demo ISV on a new sandbox database.
  SEED_DEMO: z.enum(["0", "1"]).default("1"),
  // GET /metrics (docs/reference.md section 17) answers a scrape bearing this token; unset: 404.
  METRICS_TOKEN: z.string().min(16, "must be at least 16 characters").optional(),
  // A separate port serving /metrics without a token (bind it to a private interface); unset: none.
  METRICS_PORT: z.coerce.number().int().min(1).max(65535).optional(),
  /** Where METRICS_PORT listens: loopback unless told (its metrics need no token). */
  METRICS_HOST: z.string().default("127.0.0.1"),
  // The bench's baseline alone (`npm run bench`: throughput with metrics and audit against without):
  // "off" records no metrics and writes no audit entries. Refused in production.
  INSTRUMENTATION: z.enum(["on", "off"]).default("on"),
  // Who verifies merchants (docs/reference.md section 14): the sandbox's magic values, or none (every
  // check goes to an operator). Default: sandbox in the sandbox, none in production.
  VERIFICATION_PROVIDER: z.enum(["sandbox", "none"]).optional(),
  // The sandbox provider's simulated answer time per check (the contract: verified within 3 seconds).
  VERIFICATION_LATENCY_MS: z.coerce.number().int().min(0).max(2500).default(800),
  // The work of a new password hash (lib/auth/secrets.ts). "test" is for the test suites alone (a
  // hash in milliseconds instead of a third of a CPU-second, as Django's and Devise's test settings
  // do): refused in production.
  PASSWORD_HASH_COST: z.enum(["standard", "test"]).default("standard"),
});

export type Env = Omit<
  z.infer<typeof schema>,
  "PUBLIC_BASE_URL" | "APP_ENV" | "SANDBOX_WEBHOOK_LOOPBACK" | "TOKENIZER_ORIGIN" | "VERIFICATION_PROVIDER"
> & {
  VERIFICATION_PROVIDER: "sandbox" | "none";
  PUBLIC_BASE_URL: string;
  /** The card frame's origin (tokenizerOriginFor), and whether it is not the service's own. */
  TOKENIZER_ORIGIN: string;
  TOKENIZER_SEPARATE: boolean;
  APP_ENV: "sandbox" | "production";
  SANDBOX_WEBHOOK_LOOPBACK: "0" | "1";
};

function load(): Env {
  const parsed = schema.safeParse(process.env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join(".")}: ${i.message}`);
    throw new Error(`Invalid environment:\n${lines.join("\n")}`);
  }
  const value = parsed.data;
  // A deployment on PostgreSQL must say what it is: a production that forgot APP_ENV would
  // otherwise serve the sandbox's test helpers and magic values. Locally (PGlite) sandbox is the default.
  // (Neither check applies while Next builds the pages: the build loads modules but serves nothing,
  // and the server that runs them reads its own environment, secrets included, at start.)
  const building = process.env.NEXT_PHASE === "phase-production-build";
  if (!value.APP_ENV && value.DATABASE_URL && !building) {
    throw new Error(
      "APP_ENV must be set to sandbox or production when DATABASE_URL is set (a deployment says which it is)",
    );
  }
  const appEnv = value.APP_ENV ?? "sandbox";
  // Every entry point (server, worker, CLI), whatever NODE_ENV: production never generates its keys.
  if (appEnv === "production" && (!value.JWT_SECRET || !value.ENCRYPTION_KEY) && !building) {
    throw new Error("APP_ENV=production needs JWT_SECRET and ENCRYPTION_KEY in the environment");
  }
  if (appEnv === "production" && value.INSTRUMENTATION === "off")
    throw new Error(
      "INSTRUMENTATION=off is for the bench's baseline; production always records metrics and the audit log",
    );
  if (appEnv === "production" && value.PASSWORD_HASH_COST === "test")
    throw new Error("PASSWORD_HASH_COST=test is for the test suites; production hashes passwords at the standard cost");
  const publicBaseUrl = (value.PUBLIC_BASE_URL ?? `http://localhost:${value.PORT}`).replace(/\/$/, "");
  const tokenizer = tokenizerOriginFor(publicBaseUrl, value.TOKENIZER_ORIGIN);
  return {
    ...value,
    APP_ENV: appEnv,
    DATA_DIR: path.resolve(value.DATA_DIR),
    PUBLIC_BASE_URL: publicBaseUrl,
    TOKENIZER_ORIGIN: tokenizer.origin,
    TOKENIZER_SEPARATE: tokenizer.separate,
    SANDBOX_WEBHOOK_LOOPBACK: value.SANDBOX_WEBHOOK_LOOPBACK ?? (value.DATABASE_URL ? "0" : "1"),
    VERIFICATION_PROVIDER: value.VERIFICATION_PROVIDER ?? (appEnv === "sandbox" ? "sandbox" : "none"),
  };
}

export const env: Env = load();

/**
 * The test suites only: read process.env again into `env` (tests/setup-env.ts, once per test file).
 * Files that share one module graph in a worker (vitest.config.ts) each set their own data
 * directory or database; what a module captured at load stays the first file's.
 */
export function reloadEnvForTests() {
  Object.assign(env, load());
}

export const isSandbox = env.APP_ENV === "sandbox";
