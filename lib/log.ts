import pino from "pino";

import { env } from "./env";

// Structured JSON logs. Sensitive values never reach here in full: serializers mask them, and the
// keys of redactDeep are redacted at any depth as a second line of defence.
const base = { service: "onboarding-platform", env: env.APP_ENV };

/** Access lines carry only method, path, status, timing and ids: no redaction pass needed. */
export const accessLog = pino({ level: env.LOG_LEVEL, base });

type SerializedError = Record<string, unknown> & { message?: string; stack?: string; cause?: unknown };

/**
 * Errors as logged: never a query's parameters (personal data, encrypted secrets, their last
 * characters). Drizzle puts them in `params` and in its message ("Failed query: …\nparams: …"),
 * PostgreSQL in `detail` ("Key (email)=(…) already exists"); those are cut, here and in causes.
 */
export function safeError(error: unknown): unknown {
  if (!error || typeof error !== "object") return error;
  const out: SerializedError =
    error instanceof Error ? (pino.stdSerializers.err(error) as SerializedError) : { ...(error as object) };
  const cut = (text: unknown) =>
    typeof text === "string" ? text.replace(/\nparams: [\s\S]*?(?=\n\s+at |$)/, "\nparams: [redacted]") : text;
  out.message = cut(out.message) as string | undefined;
  out.stack = cut(out.stack) as string | undefined;
  for (const key of ["params", "parameters", "detail"]) if (key in out) out[key] = "[redacted]";
  // The cause as an object of its own (its code and constraint help; pino only appends its stack).
  const cause = (error as { cause?: unknown }).cause;
  if (cause) out.cause = safeError(cause);
  return out;
}

/**
 * Keys whose values never reach a log, at any depth: identity numbers, bank and card data (the
 * tokenizer's body: `number`, `cvc`, `account_number`), secrets and credentials.
 */
const sensitiveKeys = new Set([
  "ssn",
  "tin",
  "account_number",
  "account_number_confirm",
  "password",
  "secret_key",
  "secret",
  "api_key",
  "authorization",
  "cookie",
  "card_number",
  "number",
  "cvc",
  "cvv",
]);

/** A copy of a log line's object with every sensitive key's value replaced, however deep (plain objects and arrays only; errors go through safeError). */
export function redactDeep(value: unknown, depth = 0, seen = new WeakSet<object>()): unknown {
  if (!value || typeof value !== "object" || depth > 10) return value;
  if (seen.has(value)) return "[circular]";
  if (Array.isArray(value)) {
    seen.add(value);
    return value.map((v) => redactDeep(v, depth + 1, seen));
  }
  const proto = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) return value;
  seen.add(value);
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value))
    out[key] =
      sensitiveKeys.has(key.toLowerCase()) && v !== null && v !== undefined
        ? "[redacted]"
        : redactDeep(v, depth + 1, seen);
  return out;
}

/** The application log's options (its tests write through them to a destination of their own). */
export const logOptions: pino.LoggerOptions = {
  level: env.LOG_LEVEL,
  base,
  serializers: { err: safeError },
  formatters: { log: (object) => redactDeep(object) as Record<string, unknown> },
};

export const log = pino(logOptions);
