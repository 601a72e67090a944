import type { z } from "zod";

// The application's errors (docs/reference.md section 3): domain, database and job code throws these;
// lib/api alone turns them into HTTP statuses and bodies. Nothing here knows about HTTP.

export const errorTypes = [
  "invalid_request_error",
  "authentication_error",
  "permission_error",
  "not_found_error",
  "conflict_error",
  "idempotency_error",
  "rate_limit_error",
  "card_error",
  "api_error",
] as const;
export type ErrorType = (typeof errorTypes)[number];

export type FieldError = { param: string; code: string; message: string };

/**
 * The codes the application answers with, each with its type. A code outside this table does not
 * compile, so the catalogue in the docs and the errors the code throws cannot drift apart.
 */
export const errorCodes = {
  // invalid_request_error
  parameter_invalid: "invalid_request_error",
  parameter_missing: "invalid_request_error",
  parameter_unknown: "invalid_request_error",
  parameter_not_allowed: "invalid_request_error",
  override_not_allowed: "invalid_request_error",
  invalid_json: "invalid_request_error",
  invalid_request: "invalid_request_error",
  body_too_large: "invalid_request_error",
  unsupported_media_type: "invalid_request_error",
  method_not_allowed: "invalid_request_error",
  application_incomplete: "invalid_request_error",
  signature_mismatch: "invalid_request_error",
  imei_in_use: "invalid_request_error",
  information_requested: "invalid_request_error",
  terminal_unknown: "invalid_request_error",
  token_invalid: "invalid_request_error",
  card_invalid: "invalid_request_error",
  bank_account_invalid: "invalid_request_error",
  payment_method_not_allowed: "invalid_request_error",
  ach_authorization_required: "invalid_request_error",
  refund_exceeds_charge: "invalid_request_error",
  platform_fee_too_large: "invalid_request_error",
  api_version_unknown: "invalid_request_error",
  refund_failed: "invalid_request_error",
  file_empty: "invalid_request_error",
  file_too_large: "invalid_request_error",
  upload_timeout: "invalid_request_error",
  file_type_unsupported: "invalid_request_error",
  file_unreadable: "invalid_request_error",
  image_too_large: "invalid_request_error",
  password_reset_invalid: "invalid_request_error",
  invitation_invalid: "invalid_request_error",
  too_many_invitations: "invalid_request_error",
  insufficient_funds: "invalid_request_error",
  instant_payout_unavailable: "invalid_request_error",
  payout_card_refused: "invalid_request_error",
  payment_method_expired: "invalid_request_error",
  payment_method_unusable: "invalid_request_error",
  // authentication_error
  unauthenticated: "authentication_error",
  invalid_credentials: "authentication_error",
  invalid_secret: "authentication_error",
  second_factor_required: "authentication_error",
  invalid_second_factor: "authentication_error",
  // permission_error
  cross_site_request: "permission_error",
  account_type_not_allowed: "permission_error",
  merchant_not_approved: "permission_error",
  reauthentication_required: "permission_error",
  permission_denied: "permission_error",
  second_factor_enrolment_required: "permission_error",
  payouts_frozen: "permission_error",
  payments_not_configured: "permission_error",
  ach_not_enabled: "permission_error",
  origin_not_allowed: "permission_error",
  component_not_enabled: "permission_error",
  // not_found_error
  resource_missing: "not_found_error",
  route_not_found: "not_found_error",
  // conflict_error
  invalid_state: "conflict_error",
  email_taken: "conflict_error",
  last_owner: "conflict_error",
  last_factor: "conflict_error",
  custom_domain_taken: "conflict_error",
  custom_domain_unverified: "conflict_error",
  terminal_busy: "conflict_error",
  payment_in_progress: "conflict_error",
  payment_request_locked: "conflict_error",
  file_duplicate: "conflict_error",
  document_not_needed: "conflict_error",
  payouts_held: "conflict_error",
  // idempotency_error
  idempotency_key_reused: "idempotency_error",
  idempotency_key_in_use: "idempotency_error",
  // rate_limit_error
  rate_limited: "rate_limit_error",
  upload_quota_exceeded: "rate_limit_error",
  too_many_sign_in_attempts: "rate_limit_error",
  too_many_declines: "rate_limit_error",
  // card_error
  card_declined: "card_error",
  // api_error
  internal_error: "api_error",
} as const satisfies Record<string, ErrorType>;
export type ErrorCode = keyof typeof errorCodes;

/** The one error type of the application. Its type follows from its code (the table above). */
export class AppError extends Error {
  readonly type: ErrorType;
  readonly param: string | undefined;
  readonly errors: FieldError[] | undefined;
  /** For rate limits: when the caller may try again. */
  readonly retryAfterSeconds: number | undefined;
  /** More of the answer's `error` object (a declined charge: `decline_code` and the failed `charge`). */
  readonly details: Record<string, unknown> | undefined;
  constructor(
    readonly code: ErrorCode,
    message: string,
    options: {
      param?: string;
      errors?: FieldError[];
      retryAfterSeconds?: number;
      type?: ErrorType;
      details?: Record<string, unknown>;
    } = {},
  ) {
    super(message);
    this.name = "AppError";
    this.type = options.type ?? errorCodes[code];
    this.param = options.param ?? options.errors?.[0]?.param;
    this.errors = options.errors;
    this.retryAfterSeconds = options.retryAfterSeconds;
    this.details = options.details;
  }

  /** The caller's fault (any type but `api_error`): safe to show as it is. */
  get isClientError() {
    return this.type !== "api_error";
  }
}

export const invalid = (param: string, message: string, code: ErrorCode = "parameter_invalid") =>
  new AppError(code, message, { param, errors: [{ param, code, message }] });

/** A 400 listing every problem; its code is the first problem's (field codes are finer than the table). */
export const invalidFields = (errors: FieldError[]) =>
  new AppError((errors[0]?.code ?? "parameter_invalid") as ErrorCode, errors[0]?.message ?? "Invalid request", {
    errors,
    type: "invalid_request_error",
  });

export const notFound = (what: string, id?: string, param?: string) =>
  new AppError("resource_missing", id ? `No such ${what}: '${id}'` : `No such ${what}`, { param });

export const unauthenticated = (
  message = "Missing or invalid credentials. Send `Authorization: Basic base64(account_sid:secret_key)` or `Authorization: Bearer <token>`.",
) => new AppError("unauthenticated", message);

export const forbidden = (code: ErrorCode, message: string) => new AppError(code, message);

/** A move the object's current state does not allow (409 `invalid_state`). */
export const invalidState = (message: string) => new AppError("invalid_state", message);

/** Turns zod issues into the contract's field errors, with `param` as the client's full path. */
export function issuesToFieldErrors(
  issues: z.core.$ZodIssue[],
  prefix: (string | number)[] = [],
  input?: unknown,
): FieldError[] {
  const out: FieldError[] = [];
  for (const issue of issues) {
    const path = [...prefix, ...issue.path.map((p) => (typeof p === "symbol" ? String(p) : p))];
    if (issue.code === "unrecognized_keys") {
      for (const key of issue.keys) {
        const param = formatPath([...path, key]);
        out.push({ param, code: "parameter_unknown", message: `${param} is not a recognized field` });
      }
      continue;
    }
    const param = formatPath(path);
    // Missing: nothing at the path in what the client sent (when known), else zod's own word for it.
    const missing =
      input !== undefined
        ? valueAt(input, issue.path) === undefined &&
          (issue.code === "invalid_type" || issue.code === "invalid_value" || issue.code === "invalid_union")
        : issue.code === "invalid_type" && / received undefined$/.test(issue.message);
    out.push({
      param,
      code: missing ? "parameter_missing" : "parameter_invalid",
      message: missing ? `${param || "body"} is required` : `${param || "body"}: ${issue.message}`,
    });
  }
  return out;
}

function valueAt(root: unknown, path: PropertyKey[]): unknown {
  let value = root;
  for (const key of path) {
    if (value === null || typeof value !== "object") return undefined;
    value = (value as Record<PropertyKey, unknown>)[key];
  }
  return value;
}

export function formatPath(path: (string | number)[]): string {
  return path.reduce<string>(
    (acc, part) => (typeof part === "number" ? `${acc}[${part}]` : acc ? `${acc}.${part}` : part),
    "",
  );
}

const statusByType: Record<ErrorType, number> = {
  invalid_request_error: 400,
  authentication_error: 401,
  permission_error: 403,
  not_found_error: 404,
  conflict_error: 409,
  idempotency_error: 409,
  rate_limit_error: 429,
  card_error: 402,
  api_error: 500,
};

// Codes whose HTTP status is finer than their type's.
const statusByCode: Partial<Record<ErrorCode, number>> = {
  body_too_large: 413,
  file_too_large: 413,
  upload_timeout: 408,
  unsupported_media_type: 415,
  method_not_allowed: 405,
};

/** The HTTP status of an error, for the API and for the pages' route handlers alike. */
export function httpStatusOf(error: AppError): number {
  return statusByCode[error.code] ?? statusByType[error.type];
}

/** The error as it stands, or null when it says "no such object" (a page then shows its 404). */
export function nullIfNotFound(error: unknown): null {
  if (error instanceof AppError && error.type === "not_found_error") return null;
  throw error;
}
