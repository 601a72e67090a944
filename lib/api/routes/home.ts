import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import { z } from "zod";

import { createLoginLink, revokeMerchantSessions } from "../../domain/home/login";
import type { AppEnv } from "../context";
import { isvOnly } from "../middleware/auth";
import { commonErrors, conflict409, jsonContent, pathId, security } from "../openapi";

export const loginLinkSchema = z
  .object({
    object: z.literal("login_link"),
    url: z.string().meta({ description: "Opens the merchant's home, signed in; single use" }),
    expires_at: z.string().meta({ description: "5 minutes after it was made" }),
  })
  .meta({ id: "LoginLink" });

// POST /v1/merchants/{merchant_id}/login_links: the ISV's "Open your payments" button.
const createLoginLinkRoute = createRoute({
  method: "post",
  path: "/v1/merchants/{merchant_id}/login_links",
  tags: ["Merchants"],
  summary: "Create a sign-in link to the merchant's home",
  description:
    "A single-use `url` that signs the merchant in to its home (its payments, refunds, settlements, statements and documents, on the ISV's brand) for 12 hours. Valid 5 minutes; make one each time the merchant clicks, never send it by e-mail. Only for an APPROVED merchant (else 409 `invalid_state`); another ISV's merchant is 404.",
  security: security.isv,
  middleware: [isvOnly] as const,
  request: { params: z.object({ merchant_id: pathId("merchant_id", "mer_4kZ2qV9sT1pLmN8xRw3YbC") }) },
  responses: {
    200: {
      description: "The link",
      ...jsonContent(loginLinkSchema, {
        object: "login_link",
        url: "http://localhost:3000/home/login/Zq8w1mN4pL2kR7tY9vB3xC6dF0gH5jS8aE1uI4oP7qW",
        expires_at: "2026-11-01T09:35:00.000Z",
      }),
    },
    ...commonErrors,
    409: conflict409,
  },
});

export const sessionRevocationSchema = z
  .object({
    object: z.literal("merchant_session_revocation"),
    merchant_id: z.string(),
    revoked_sessions: z.number().int().meta({ description: "How many signed-in home sessions were ended" }),
    revoked_api_keys: z.number().int().meta({
      description:
        "How many of the merchant's own secret keys made in its home were ended with them (0 or 1: a key made in the home is ended, one the ISV made with the operator is not)",
    }),
    revoked_at: z.string(),
  })
  .meta({ id: "MerchantSessionRevocation" });

// POST /v1/merchants/{merchant_id}/sessions/revoke: ends every signed-in session of the merchant's home.
const revokeSessionsRoute = createRoute({
  method: "post",
  path: "/v1/merchants/{merchant_id}/sessions/revoke",
  tags: ["Merchants"],
  summary: "End every session of the merchant's home",
  description:
    "Signs the merchant out of its home everywhere (sessions opened by login links, e-mailed links or the ISV's own): each ends at once, before its 12 hours, and so does a secret key the merchant made in its home (`revoked_api_keys`). Use it when a device is lost or a person leaves the merchant. Unused login links still expire by themselves within 5 minutes. Sign-out, deactivation and a bank account or contact change end sessions on their own. Another ISV's merchant is 404.",
  security: security.isv,
  middleware: [isvOnly] as const,
  request: { params: z.object({ merchant_id: pathId("merchant_id", "mer_4kZ2qV9sT1pLmN8xRw3YbC") }) },
  responses: {
    200: {
      description: "How many sessions were ended",
      ...jsonContent(sessionRevocationSchema, {
        object: "merchant_session_revocation",
        merchant_id: "mer_4kZ2qV9sT1pLmN8xRw3YbC",
        revoked_sessions: 2,
        revoked_api_keys: 0,
        revoked_at: "2026-11-01T09:30:00.000Z",
      }),
    },
    ...commonErrors,
  },
});

export function homeRoutes(app: OpenAPIHono<AppEnv>) {
  app.openapi(createLoginLinkRoute, async (c) =>
    c.json(await createLoginLink(c.get("db"), c.get("principal").accountId, c.req.valid("param").merchant_id), 200),
  );
  app.openapi(revokeSessionsRoute, async (c) =>
    c.json(
      await revokeMerchantSessions(c.get("db"), c.get("principal").accountId, c.req.valid("param").merchant_id),
      200,
    ),
  );
}
