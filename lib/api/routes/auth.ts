import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";

import { checkSignInAttempts } from "../../auth/sign-in-limiter";
import { signInForToken } from "../../domain/accounts/sign-in";
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
    "Returns a JWT (valid for one hour) accepted as `Authorization: Bearer <token>` wherever `account-password-sign-in` is listed. A member with an authenticator app sends its six-digit `code` (or a recovery code) too: without it the answer is 401 `second_factor_required`, with a wrong or used one 401 `invalid_second_factor`. An owner or admin who has not set up a second factor is refused (403 `second_factor_enrolment_required`) until it does, in the dashboard. Attempts are limited to 10 per 5 minutes per e-mail and address, and as many per member and address for the code.",
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
    403: {
      description: "An owner or admin has not set up a second factor yet (`second_factor_enrolment_required`)",
      content: commonErrors[401].content,
    },
    429: commonErrors[429],
  },
});

export function authRoutes(app: OpenAPIHono<AppEnv>) {
  app.openapi(signGetBearerJwtRoute, async (c) => {
    const { email, password, code } = c.req.valid("json");
    await checkSignInAttempts(email, getConnInfoAddress(c));
    const { user: _user, ...token } = await signInForToken(c.get("db"), email, password, code, {
      userAgent: c.req.header("user-agent") ?? null,
      address: c.get("clientAddress"),
    });
    return c.json(token, 200);
  });
}
