import pino from "pino";
import { env } from "./env";

// Structured JSON logs. Sensitive values never reach here in full: serializers mask them, and
// these paths are redacted as a second line of defence.
const base = { service: "onboarding-platform", env: env.APP_ENV };

/** Access lines carry only method, path, status, timing and ids: no redaction pass needed. */
export const accessLog = pino({ level: env.LOG_LEVEL, base });

export const log = pino({
  level: env.LOG_LEVEL,
  base,
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
