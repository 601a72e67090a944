import { z } from "zod";

import { errorBodySchema } from "./errors";

const error = (description: string) => ({ description, content: { "application/json": { schema: errorBodySchema } } });

/** The error answers every authenticated operation may give, for the OpenAPI document. */
export const commonErrors = {
  400: error("Invalid request: every problem is listed in `error.errors`"),
  401: error("Missing or invalid credentials"),
  404: error("No such object (or it belongs to another account)"),
  429: error("Rate limited: see the Retry-After header"),
};

/** 409: the object's state does not allow the operation. */
export const conflict409 = error("Conflict: the object's state does not allow this (`invalid_state`)");
/** 403 on the operations that take payments for a merchant. */
export const forbidden403 = error("The merchant cannot take payments (`merchant_not_approved`)");

type Security = Record<string, string[]>[];
export const security: Record<"isv" | "apiKey" | "onboarding", Security> = {
  isv: [{ "api-key-secret": [] }, { "account-password-sign-in": [] }],
  apiKey: [{ "api-key-secret": [] }],
  onboarding: [{ "merchant-onboarding-session-token": [] }],
};

export const jsonContent = <T>(schema: T, example?: unknown) => ({
  content: { "application/json": { schema, ...(example !== undefined ? { example } : {}) } },
});

/** A path parameter holding an object id (at most 64 characters), with its name and an example for the document. */
export const pathId = (name: string, example: string) =>
  z
    .string()
    .max(64)
    .meta({ param: { name, in: "path" }, example });
