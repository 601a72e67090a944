import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";

import type { OpenAPIHono } from "@hono/zod-openapi";
import { z } from "zod";

import { env } from "../../env";
import { eventCatalogue, eventTypes } from "../../events/catalogue";
import { docsCsp } from "../../net/csp";
import { platformFeeEventSchema } from "../../schemas/platform-fees";
import { apiVersions, LATEST_API_VERSION } from "../../versions/versions";
import type { AppEnv } from "../context";
import { explicitSchemas } from "../openapi-explicit";
import { routePermission } from "../route-permissions";

const require = createRequire(import.meta.url);

const description = `The API for ISVs: create merchants, send them onboarding links, follow their status, subscribe to webhooks.

**Authentication.** \`Authorization: Basic base64(account_sid:secret_key)\` with your master API key, or \`Authorization: Bearer <token>\` from \`POST /v1/auth/token\`.

**Conventions.** Success is HTTP 200 with JSON. Errors have one shape: \`{ "error": { "type", "code", "message", "param", "errors", "request_id" } }\`. Every answer carries a \`Request-Id\` header. Any POST may send \`Idempotency-Key\` (1-255 characters): the same key and body within 24 hours replays the first answer with \`Idempotent-Replayed: true\`; a different body, or a request still running, answers 409. Lists take \`limit\` (1-100, default 10), \`starting_after\` and \`ending_before\`, newest first. Bodies are JSON, at most 1 MB. Rate limit: ${env.RATE_LIMIT_PER_SECOND} requests per second per account (429 with \`Retry-After\`).

**Versions.** The API is versioned by date: send \`Onb-Version: YYYY-MM-DD\` (versions: ${apiVersions.join(", ")}), or none for the version your account is pinned to (\`GET /v1/account\` \`api_version\`; \`PATCH /v1/account\` moves it). Every answer carries \`Onb-Version\`; an unknown version is 400 \`api_version_unknown\`. Webhook endpoints have their own \`api_version\`. This document describes the latest version, ${LATEST_API_VERSION}.

**Sandbox values.** A sandbox deployment decides by these values (production by the real checks):

| what | value | outcome |
| --- | --- | --- |
| TIN | \`000000000\` | the TIN check passes: approved when every other rule holds |
| TIN | \`111111111\` | information requested (the merchant answers in the portal) |
| TIN | \`222222222\` | manual review (\`npm run cli -- merchant review <id> --approve\`) |
| TIN | \`333333333\` | the business check asks for a document |
| TIN | \`999999999\` | declined |
| owner birth date | \`1902-01-01\` | that owner's identity check asks for an identity document |
| owner birth date | \`1900-01-01\` | sanctions match: manual review |
| bank account number | \`000444444440\` | the bank account check asks for a bank document |
| bank account number | \`000555555550\` | verified, but its payouts fail (\`account_closed\`) |
| document file name | containing \`unreadable\` | the document is refused and asked for again |
| card | \`4242 4242 4242 4242\` (any future expiry, any CVC) | approved (the pay operation lists the declining cards) |
| card | \`4000 0000 0000 0259\` | approved, then disputed once settled |
| dispute evidence text | \`winning_evidence\` / \`losing_evidence\` | the dispute is won / lost |
| ACH account (routing \`021000021\`) | \`000111111116\` / \`000222222227\` / \`000333333335\` | declined / returned after settlement / returned, then reversed |`;

/**
 * The reference runs on its own: none of Scalar's hosted-service features (its API client app, the
 * developer tools and registry, the AI agent, MCP, telemetry) and no calls to its servers.
 */
export const scalarConfiguration = {
  hideClientButton: true,
  withDefaultFonts: false,
  showDeveloperTools: "never",
  agent: { disabled: true },
  mcp: { disabled: true },
  telemetry: false,
  documentDownloadType: "json",
};

type OpenApiDocument = {
  info: Record<string, unknown>;
  paths: Record<string, Record<string, { operationId?: string; summary?: string }>>;
  webhooks?: Record<string, unknown>;
  components?: { schemas?: Record<string, unknown> };
};

const schemaOfResource: Record<string, string> = {
  merchant: "Merchant",
  statement: "Statement",
  payment_request: "PaymentRequest",
  charge: "Charge",
  refund: "Refund",
  settlement: "Settlement",
  payout: "Payout",
  dispute: "Dispute",
  report: "Report",
  platform_fee: "PlatformFee",
  residual: "Residual",
  reserve: "Reserve",
  risk_alert: "RiskAlert",
  customer: "Customer",
  payment_method: "PaymentMethod",
  subscription: "Subscription",
};

/** Ids a developer would guess, where the summary's words would not give them. */
const operationIds: Record<string, string> = {
  "post /v1/auth/token": "signIn",
  "get /v1/account": "getAccount",
  "patch /v1/account": "updateAccount",
  "patch /v1/onboarding/session": "updateOnboardingSession",
  "post /v1/onboarding/session/agreement": "signAgreement",
  "post /v1/onboarding/session/submit": "submitOnboardingSession",
  "get /v1/webhooks/{webhook_id}/deliveries": "listWebhookDeliveries",
  "post /v1/webhooks/{webhook_id}/deliveries/{delivery_id}/retry": "retryWebhookDelivery",
  "post /v1/terminal": "createTerminalPayment",
  "post /v1/scan_to_pay": "createScanToPay",
  "post /v1/invoice": "createInvoice",
  "post /v1/manual": "createManualPayment",
  "post /v1/payment_requests/{payment_request_id}/pay": "payPaymentRequest",
  "get /v1/payment_requests/{payment_request_id}/qr": "getPaymentRequestQrCode",
  "get /v1/payment_requests/{payment_request_id}/stream": "streamPaymentRequest",
  "post /v1/tokens": "createToken",
  "post /v1/refunds": "createRefund",
  "post /v1/charges": "createCharge",
  "post /v1/payment_methods": "createPaymentMethod",
  "get /v1/payment_methods": "listPaymentMethods",
  "get /v1/payment_methods/{payment_method_id}": "getPaymentMethod",
  "post /v1/payment_methods/{payment_method_id}/detach": "detachPaymentMethod",
  "post /v1/fees/preview": "previewFee",
  "get /v1/settlements/{settlement_id}/charges": "listSettlementCharges",
  "get /v1/statements/{merchantId}": "listStatements",
  "get /v1/statements/{merchantId}/download/{statementId}": "downloadStatement",
  "get /v1/test_helpers/outbox": "listOutbox",
};

/** "Create a merchant" → "createMerchant": an operation's id from its summary (articles dropped). */
export function operationIdOf(summary: string) {
  const words = summary
    .replace(/'s\b/g, "")
    .replace(/[^A-Za-z0-9 ]/g, " ")
    .split(/\s+/)
    .filter((w) => w && !["a", "an", "the"].includes(w.toLowerCase()));
  return words
    .map((w, i) => (i === 0 ? w.toLowerCase() : w.charAt(0).toUpperCase() + w.slice(1).toLowerCase()))
    .join("");
}

/**
 * What the route definitions do not say: an `operationId` on every operation (from its summary,
 * unique), and the OpenAPI 3.1 `webhooks` section, one entry per event of the catalog with its
 * Standard Webhooks headers and its `data.object` schema.
 */
/** Resources that only webhooks carry (no operation answers them), so that their events can name them. */
const webhookOnlyResources = [platformFeeEventSchema];

/** A zod schema's JSON Schema definitions as OpenAPI components (their references pointed there). */
function componentsOf(schema: z.ZodType): Record<string, unknown> {
  const safe = Number.MAX_SAFE_INTEGER;
  const json = JSON.stringify(z.toJSONSchema(schema).$defs ?? {}, (key, value: unknown) =>
    (key === "minimum" && value === -safe) || (key === "maximum" && value === safe) ? undefined : value,
  );
  return JSON.parse(json.replaceAll('"#/$defs/', '"#/components/schemas/')) as Record<string, unknown>;
}

function completeDocument(doc: OpenApiDocument) {
  // The version this document describes, for the SDK's generator (its default Onb-Version).
  doc.info["x-api-version"] = LATEST_API_VERSION;
  doc.components ??= {};
  doc.components.schemas ??= {};
  for (const schema of webhookOnlyResources)
    for (const [name, component] of Object.entries(componentsOf(schema))) doc.components.schemas[name] ??= component;
  const seen = new Set<string>();
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(item)) {
      if (op.operationId) {
        seen.add(op.operationId);
        const given = routePermission(method.toUpperCase(), path);
        if (given && given !== "open")
          (op as Record<string, unknown>)["x-permission"] = `${given.resource}:${given.access}`;
        continue;
      }
      // Which permission the operation needs (a restricted key's, a team member's role: section 23).
      const needed = routePermission(method.toUpperCase(), path);
      if (needed && needed !== "open")
        (op as Record<string, unknown>)["x-permission"] = `${needed.resource}:${needed.access}`;
      let id = operationIds[`${method} ${path}`] ?? operationIdOf(op.summary ?? `${method} ${path}`);
      if (seen.has(id)) id = `${id}${method.charAt(0).toUpperCase()}${method.slice(1)}`;
      seen.add(id);
      op.operationId = id;
    }
  }
  const header = (name: string, description: string) => ({
    name,
    in: "header",
    required: true,
    description,
    schema: { type: "string" },
  });
  doc.webhooks = Object.fromEntries(
    eventTypes.map((type) => {
      const entry = eventCatalogue[type];
      const resource = schemaOfResource[entry.resource];
      return [
        type,
        {
          post: {
            operationId: operationIdOf(`${type.replace(/[._]/g, " ")} event`),
            summary: type,
            description: `${entry.description} Sent to the webhooks subscribed to the \`${entry.scope}\` scope; \`data.object\` is the ${entry.resource} as the API returns it.`,
            tags: ["Webhooks"],
            security: [],
            parameters: [
              header("webhook-id", "The event's id: the same on every retry (deduplicate on it)"),
              header("webhook-timestamp", "Unix seconds when this attempt was signed"),
              header(
                "webhook-signature",
                "`v1,` + base64 HMAC-SHA256 of `{webhook-id}.{webhook-timestamp}.{body}` with the endpoint's secret",
              ),
            ],
            requestBody: {
              required: true,
              content: {
                "application/json": {
                  schema: {
                    allOf: [
                      { $ref: "#/components/schemas/Event" },
                      {
                        type: "object",
                        properties: {
                          type: { const: type },
                          data: {
                            type: "object",
                            properties: {
                              object: resource ? { $ref: `#/components/schemas/${resource}` } : { type: "object" },
                            },
                            required: ["object"],
                          },
                        },
                      },
                    ],
                  },
                },
              },
            },
            responses: {
              "200": { description: "Received. Any 2xx answer within 10 s acknowledges the event." },
              "400": {
                description:
                  "Not received: any other answer, or none within 10 s, is retried (8 tries over about a day).",
              },
            },
          },
        },
      ];
    }),
  );
  return doc;
}

export function docsRoutes(app: OpenAPIHono<AppEnv>) {
  app.openAPIRegistry.registerComponent("securitySchemes", "api-key-secret", {
    type: "http",
    scheme: "basic",
    description:
      "base64(account_sid:secret_key): an ISV API key, standard (the whole account) or restricted (each operation's `x-permission` says what it needs)",
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
    // Every schema explicit (./openapi-explicit.ts) once the document is complete, webhooks included.
    document ??= explicitSchemas(
      completeDocument(
        app.getOpenAPI31Document({
          openapi: "3.1.0",
          info: {
            title: "Merchant onboarding and payments API",
            version: "v1",
            description,
            license: { name: "Proprietary", url: `${env.PUBLIC_BASE_URL}/docs` },
          },
          servers: [{ url: env.PUBLIC_BASE_URL, description: env.APP_ENV === "sandbox" ? "Sandbox" : "Production" }],
          tags: [
            { name: "Authentication", description: "Sign in" },
            { name: "Account", description: "Your ISV account and settings" },
            { name: "Webhooks", description: "The events your webhook endpoints receive (see the `webhooks` section)" },
          ],
        }) as unknown as OpenApiDocument,
      ),
    );
    return c.json(document as object);
  });

  // GET /docs: the interactive reference (Scalar, served from our own origin)
  app.get("/docs", (c) => {
    c.header("Content-Security-Policy", docsCsp);
    return c.html(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>API reference</title><link rel="icon" href="/icon.svg" type="image/svg+xml"></head>
<body><main><script id="api-reference" data-url="/v1/openapi.json" data-configuration='${JSON.stringify(scalarConfiguration)}'></script></main>
<script src="/docs/reference.js"></script></body></html>`);
  });

  let bundle: Buffer | undefined;
  app.get("/docs/reference.js", (c) => {
    bundle ??= fs.readFileSync(
      path.join(path.dirname(require.resolve("@scalar/api-reference")), "browser", "standalone.js"),
    );
    c.header("Cache-Control", "public, max-age=3600");
    return c.body(new Uint8Array(bundle), 200, { "Content-Type": "text/javascript; charset=utf-8" });
  });
}
