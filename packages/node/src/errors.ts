/** The `type` of every error the API answers (its error object's `type`). */
export type OnbErrorType =
  | "invalid_request_error"
  | "authentication_error"
  | "permission_error"
  | "not_found_error"
  | "conflict_error"
  | "idempotency_error"
  | "rate_limit_error"
  | "api_error";

/** One field's problem in a 400 that lists several (`error.errors`). */
export type OnbFieldError = { param: string; code: string; message: string };

/** Any error this SDK throws. */
export class OnbError extends Error {
  override name = "OnbError";
}

/**
 * An answer of the API that is not a success: its error object (`type`, `code`, `message`, `param`,
 * `errors`, `request_id`) and the HTTP status. Narrow on `type` or `code`, or on the subclass.
 */
export class OnbApiError extends OnbError {
  override name = "OnbApiError";
  readonly status: number;
  readonly type: OnbErrorType;
  readonly code: string;
  readonly param: string | undefined;
  readonly errors: OnbFieldError[] | undefined;
  readonly requestId: string | undefined;
  readonly headers: Headers;
  /** The answer's body as sent (parsed JSON, or its text when it was not JSON). */
  readonly raw: unknown;

  constructor(status: number, body: unknown, headers: Headers) {
    const error = errorObjectOf(body);
    super(error?.message ?? `HTTP ${status}`);
    this.status = status;
    this.type = error?.type ?? typeOfStatus(status);
    this.code = error?.code ?? `http_${status}`;
    this.param = error?.param;
    this.errors = error?.errors;
    this.requestId = error?.request_id ?? headers.get("x-request-id") ?? undefined;
    this.headers = headers;
    this.raw = body;
  }
}

export class OnbInvalidRequestError extends OnbApiError {
  override name = "OnbInvalidRequestError";
}
export class OnbAuthenticationError extends OnbApiError {
  override name = "OnbAuthenticationError";
}
export class OnbPermissionError extends OnbApiError {
  override name = "OnbPermissionError";
}
export class OnbNotFoundError extends OnbApiError {
  override name = "OnbNotFoundError";
}
export class OnbConflictError extends OnbApiError {
  override name = "OnbConflictError";
}
export class OnbIdempotencyError extends OnbApiError {
  override name = "OnbIdempotencyError";
}
export class OnbRateLimitError extends OnbApiError {
  override name = "OnbRateLimitError";
}
export class OnbServerError extends OnbApiError {
  override name = "OnbServerError";
}

/** The request never got an answer (the network, a timeout, an abort), after every retry. */
export class OnbConnectionError extends OnbError {
  override name = "OnbConnectionError";
  constructor(message: string, cause?: unknown) {
    super(message, { cause });
  }
}

/** A webhook whose signature, timestamp or body does not hold (`webhooks.verify`). */
export class OnbWebhookVerificationError extends OnbError {
  override name = "OnbWebhookVerificationError";
}

type ErrorObject = {
  type?: OnbErrorType;
  code?: string;
  message?: string;
  param?: string;
  errors?: OnbFieldError[];
  request_id?: string;
};

function errorObjectOf(body: unknown): ErrorObject | undefined {
  if (typeof body !== "object" || body === null || !("error" in body)) return undefined;
  const error = (body as { error: unknown }).error;
  return typeof error === "object" && error !== null ? (error as ErrorObject) : undefined;
}

function typeOfStatus(status: number): OnbErrorType {
  if (status === 401) return "authentication_error";
  if (status === 403) return "permission_error";
  if (status === 404) return "not_found_error";
  if (status === 409) return "conflict_error";
  if (status === 429) return "rate_limit_error";
  if (status >= 500) return "api_error";
  return "invalid_request_error";
}

const classOfType: Record<OnbErrorType, typeof OnbApiError> = {
  invalid_request_error: OnbInvalidRequestError,
  authentication_error: OnbAuthenticationError,
  permission_error: OnbPermissionError,
  not_found_error: OnbNotFoundError,
  conflict_error: OnbConflictError,
  idempotency_error: OnbIdempotencyError,
  rate_limit_error: OnbRateLimitError,
  api_error: OnbServerError,
};

/** The typed error of an answer that is not a success. */
export function apiErrorOf(status: number, body: unknown, headers: Headers): OnbApiError {
  const type = errorObjectOf(body)?.type ?? typeOfStatus(status);
  const ErrorClass = classOfType[type] ?? OnbApiError;
  return new ErrorClass(status, body, headers);
}
