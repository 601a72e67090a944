import { z } from "zod";

import { AppError, errorTypes } from "../errors";

// The HTTP face of the application's errors (lib/errors.ts, which knows each one's status): headers and body.

/** The headers of an error's answer: the API's credentials challenge (not for a page's frame, whose browser would prompt), Retry-After. */
export function httpHeaders(error: AppError, { api = true } = {}): Record<string, string> {
  if (error.type === "authentication_error") return api ? { "WWW-Authenticate": 'Basic realm="api", Bearer' } : {};
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
      ...error.details,
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
      decline_code: z.string().optional().meta({
        description: "`card_declined` (402): the card network's reason (`insufficient_funds`, `stolen_card`, ...)",
      }),
      charge: z.looseObject({}).optional().meta({ description: "`card_declined` (402): the failed charge" }),
      request_id: z.string(),
    }),
  })
  .meta({ id: "Error" });
