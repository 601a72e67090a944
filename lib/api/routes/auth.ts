import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";

import { checkSignInAttempts } from "../../auth/sign-in-limiter";
import { signIn } from "../../domain/accounts/sign-in";
import { tokenRequestSchema, tokenResponseSchema } from "../../schemas/auth";
import type { AppEnv } from "../context";
import { getConnInfoAddress } from "../middleware/conn-info";
import { commonErrors, jsonContent } from "../openapi";

// POST /v1/auth/token: sign in with e-mail and password (account-password-sign-in)
const signGetBearerJwtRoute = createRoute({
  method: "post",
  path: "/v1/auth/token",
  tags: ["Authentication"],
  summary: "Sign in and get a Bearer JWT",
  security: [],
  description:
    "Returns a JWT (valid for one hour) accepted as `Authorization: Bearer <token>` wherever `account-password-sign-in` is listed. Attempts are limited to 10 per 5 minutes per e-mail and address.",
  request: {
    body: {
      required: true,
      ...jsonContent(tokenRequestSchema, { email: "owner@acme.example", password: "correct horse battery" }),
    },
  },
  responses: {
    200: {
      description: "A token",
      ...jsonContent(tokenResponseSchema, {
        access_token: "eyJhbGciOiJIUzI1NiJ9...",
        token_type: "Bearer",
        expires_in: 3600,
      }),
    },
    400: commonErrors[400],
    401: commonErrors[401],
    429: commonErrors[429],
  },
});

export function authRoutes(app: OpenAPIHono<AppEnv>) {
  app.openapi(signGetBearerJwtRoute, async (c) => {
    const { email, password } = c.req.valid("json");
    await checkSignInAttempts(email, getConnInfoAddress(c));
    const { user: _user, ...token } = await signIn(c.var.db, email, password, {
      userAgent: c.req.header("user-agent") ?? null,
      address: c.var.clientAddress,
    });
    return c.json(token, 200);
  });
}
