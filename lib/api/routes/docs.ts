import fs from "node:fs";
import path from "node:path";
import { createRequire } from "node:module";
import type { OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv } from "../context";
import { env } from "../../env";

const require = createRequire(import.meta.url);

const description = `The API for ISVs: create merchants, send them onboarding links, follow their status, subscribe to webhooks.

**Authentication.** \`Authorization: Basic base64(account_sid:secret_key)\` with your master API key, or \`Authorization: Bearer <token>\` from \`POST /v1/auth/token\`.

**Conventions.** Success is HTTP 200 with JSON. Errors have one shape: \`{ "error": { "type", "code", "message", "param", "errors", "request_id" } }\`. Every answer carries a \`Request-Id\` header. Any POST may send \`Idempotency-Key\` (1-255 characters): the same key and body within 24 hours replays the first answer with \`Idempotent-Replayed: true\`; a different body, or a request still running, answers 409. Lists take \`limit\` (1-100, default 10), \`starting_after\` and \`ending_before\`, newest first. Bodies are JSON, at most 1 MB. Rate limit: ${env.RATE_LIMIT_PER_SECOND} requests per second per account (429 with \`Retry-After\`).`;

export function docsRoutes(app: OpenAPIHono<AppEnv>) {
  app.openAPIRegistry.registerComponent("securitySchemes", "api-key-secret", {
    type: "http",
    scheme: "basic",
    description: "base64(account_sid:secret_key): the ISV master API key",
  });
  app.openAPIRegistry.registerComponent("securitySchemes", "account-password-sign-in", {
    type: "http",
    scheme: "bearer",
    bearerFormat: "JWT",
    description: "A token from POST /v1/auth/token",
  });

  let document: unknown;
  // GET /v1/openapi.json: the OpenAPI 3.1 document, generated from the zod schemas
  app.get("/v1/openapi.json", (c) => {
    document ??= app.getOpenAPI31Document({
      openapi: "3.1.0",
      info: { title: "Merchant onboarding and payments API", version: "v1", description, license: { name: "Proprietary", url: `${env.PUBLIC_BASE_URL}/docs` } },
      servers: [{ url: env.PUBLIC_BASE_URL, description: env.APP_ENV === "sandbox" ? "Sandbox" : "Production" }],
      tags: [
        { name: "Authentication", description: "Sign in" },
        { name: "Account", description: "Your ISV account and settings" },
      ],
    });
    return c.json(document as object);
  });

  // GET /docs: the interactive reference (Scalar, served from our own origin)
  app.get("/docs", (c) => {
    c.header(
      "Content-Security-Policy",
      "default-src 'self'; script-src 'self' 'unsafe-inline' 'unsafe-eval'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self' data:; connect-src 'self'",
    );
    return c.html(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>API reference</title></head>
<body><main><script id="api-reference" data-url="/v1/openapi.json" data-configuration='{"hideClientButton":true,"withDefaultFonts":false}'></script></main>
<script src="/docs/reference.js"></script></body></html>`);
  });

  let bundle: Buffer | undefined;
  app.get("/docs/reference.js", (c) => {
    bundle ??= fs.readFileSync(path.join(path.dirname(require.resolve("@scalar/api-reference")), "browser", "standalone.js"));
    c.header("Cache-Control", "public, max-age=3600");
    return c.body(new Uint8Array(bundle), 200, { "Content-Type": "text/javascript; charset=utf-8" });
  });
}
