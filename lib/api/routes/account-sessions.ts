import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";

import { createAccountSession } from "../../domain/embed/account-sessions";
import { accountSessionSchema, createAccountSessionSchema } from "../../schemas/account-sessions";
import type { AppEnv } from "../context";
import { isvOnly } from "../middleware/auth";
import { commonErrors, jsonContent, security } from "../openapi";

// POST /v1/account_sessions: what the ISV's own page may embed for one merchant.
const createAccountSessionRoute = createRoute({
  method: "post",
  path: "/v1/account_sessions",
  tags: ["Embedded components"],
  summary: "Create an account session",
  description:
    "Made by the ISV's server each time its page shows embedded components: for one of its merchants (another ISV's: 404), the components that page may show (at least one `enabled`), each with its features (default: all on). The `client_secret` opens this merchant and these components only, once, for one hour: hand it to the page, never store or log it. The page's frames are served only to the origins in `settings.embed_allowed_origins` (PATCH /v1/account).",
  security: security.isv,
  middleware: [isvOnly] as const,
  request: {
    body: {
      required: true,
      ...jsonContent(createAccountSessionSchema, {
        merchant_id: "mer_4kZ2qV9sT1pLmN8xRw3YbC",
        components: { onboarding: { enabled: true }, payments: { enabled: true, features: { refunds: false } } },
      }),
    },
  },
  responses: {
    200: {
      description: "The account session, with its client secret (shown once)",
      ...jsonContent(accountSessionSchema, {
        object: "account_session",
        id: "as_5tK2qW8xN4mZ1rV7pL3yBd",
        merchant_id: "mer_4kZ2qV9sT1pLmN8xRw3YbC",
        client_secret: "as_5tK2qW8xN4mZ1rV7pL3yBd_secret_Zq8w1mN4pL2kR7tY9vB3xC6dF0gH5jS8",
        components: {
          onboarding: { enabled: true, features: { refunds: true, dispute_management: true } },
          payments: { enabled: true, features: { refunds: false, dispute_management: true } },
        },
        expires_at: 1795395600418,
        created_at: 1795392000418,
      }),
    },
    ...commonErrors,
  },
});

export function accountSessionRoutes(app: OpenAPIHono<AppEnv>) {
  app.openapi(createAccountSessionRoute, async (c) =>
    c.json(await createAccountSession(c.get("db"), c.get("principal").accountId, c.req.valid("json")), 200),
  );
}
