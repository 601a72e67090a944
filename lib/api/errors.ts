import { z } from "zod";

export const errorTypes = [
  "invalid_request_error",
  "authentication_error",
  "permission_error",
  "not_found_error",
  "conflict_error",
  "idempotency_error",
  "rate_limit_error",
  "api_error",
] as const;
export type ErrorType = (typeof errorTypes)[number];

const statusByType: Record<ErrorType, number> = {
  invalid_request_error: 400,
  authentication_error: 401,
  permission_error: 403,
  not_found_error: 404,
  conflict_error: 409,
  idempotency_error: 409,
  rate_limit_error: 429,
  api_error: 500,
};

export type FieldError = { param: string; code: string; message: string };

/** The one error type of the API. Its body is CONTRACT.md section 3's shape. */
export class ApiError extends Error {
  readonly status: number;
  readonly headers: Record<string, string>;
  constructor(
    readonly type: ErrorType,
    readonly code: string,
    message: string,
    options: { param?: string; errors?: FieldError[]; status?: number; headers?: Record<string, string> } = {},
  ) {
    super(message);
    this.name = "ApiError";
    this.status = options.status ?? statusByType[type];
    this.param = options.param ?? options.errors?.[0]?.param;
    this.errors = options.errors;
    this.headers = options.headers ?? {};
  }
  readonly param: string | undefined;
  readonly errors: FieldError[] | undefined;

  body(requestId: string) {
    return {
      error: {
        type: this.type,
        code: this.code,
        message: this.message,
        ...(this.param !== undefined ? { param: this.param } : {}),
        ...(this.errors ? { errors: this.errors } : {}),
        request_id: requestId,
      },
    };
  }
}

export const invalid = (param: string, message: string, code = "parameter_invalid") =>
  new ApiError("invalid_request_error", code, message, { param, errors: [{ param, code, message }] });

export const invalidFields = (errors: FieldError[]) =>
  new ApiError("invalid_request_error", errors[0]?.code ?? "parameter_invalid", errors[0]?.message ?? "Invalid request", { errors });

export const notFound = (what: string, id?: string, param?: string) =>
  new ApiError("not_found_error", "resource_missing", id ? `No such ${what}: '${id}'` : `No such ${what}`, { param });

export const unauthenticated = (message = "Missing or invalid credentials. Send `Authorization: Basic base64(account_sid:secret_key)` or `Authorization: Bearer <token>`.") =>
  new ApiError("authentication_error", "unauthenticated", message, { headers: { "WWW-Authenticate": 'Basic realm="api", Bearer' } });

export const forbidden = (code: string, message: string) => new ApiError("permission_error", code, message);

export const invalidState = (message: string) => new ApiError("conflict_error", "invalid_state", message);

export const errorBodySchema = z
  .object({
    error: z.object({
      type: z.enum(errorTypes),
      code: z.string(),
      message: z.string(),
      param: z.string().optional(),
      errors: z.array(z.object({ param: z.string(), code: z.string(), message: z.string() })).optional(),
      request_id: z.string(),
    }),
  })
  .meta({ id: "Error" });
