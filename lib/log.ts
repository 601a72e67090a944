import pino from "pino";

import { env } from "./env";

// Structured JSON logs. Sensitive values never reach here in full: serializers mask them, and
// these paths are redacted as a second line of defence.
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

export const log = pino({
  level: env.LOG_LEVEL,
  base,
  serializers: { err: safeError },
  redact: {
    paths: [
      "*.ssn",
      "*.tin",
      "*.account_number",
      "*.account_number_confirm",
      "*.password",
      "*.secret_key",
      "*.secret",
      "*.api_key",
      "*.authorization",
      "*.cookie",
      "*.card_number",
    ],
    censor: "[redacted]",
  },
});
