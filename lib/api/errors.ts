import { z } from "zod";

import { AppError, type ErrorCode, type ErrorType, errorTypes } from "../errors";

// The HTTP face of the application's errors (lib/errors.ts): status, headers and body.

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

// Codes whose HTTP status is finer than their type's.
const statusByCode: Partial<Record<ErrorCode, number>> = {
  body_too_large: 413,
  file_too_large: 413,
  upload_timeout: 408,
  unsupported_media_type: 415,
  method_not_allowed: 405,
};

export function httpStatus(error: AppError): number {
  return statusByCode[error.code] ?? statusByType[error.type];
}

export function httpHeaders(error: AppError): Record<string, string> {
  if (error.type === "authentication_error") return { "WWW-Authenticate": 'Basic realm="api", Bearer' };
  if (error.retryAfterSeconds !== undefined) return { "Retry-After": String(error.retryAfterSeconds) };
  return {};
}

export function errorBody(error: AppError, requestId: string) {
  return {
    error: {
      type: error.type,
      code: error.code,
      message: error.message,
      ...(error.param !== undefined ? { param: error.param } : {}),
      ...(error.errors ? { errors: error.errors } : {}),
      request_id: requestId,
    },
  };
}

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
