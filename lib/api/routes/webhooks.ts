import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import { z } from "zod";

import { assertFreshSignIn } from "../../auth/fresh-sign-in";
import { createWebhook } from "../../domain/webhooks/create-webhook";
import { deleteWebhook } from "../../domain/webhooks/delete-webhook";
import { findWebhook } from "../../domain/webhooks/find-webhook";
import { listDeliveries } from "../../domain/webhooks/list-deliveries";
import { listWebhooks } from "../../domain/webhooks/list-webhooks";
import { retryDelivery } from "../../domain/webhooks/retry-delivery";
import { listEnvelope, listQuerySchema, toList } from "../../schemas/list";
import { createWebhookSchema, deliverySchema, webhookSchema } from "../../schemas/webhook";
import { serializeDelivery, serializeWebhook } from "../../serializers/webhook";
import type { AppEnv } from "../context";
import { isvOnly } from "../middleware/auth";
import { commonErrors, conflict409, jsonContent, pathId, security } from "../openapi";

const exampleWebhook = {
  object: "webhook",
  id: "we_8pQ2qV9sT1pLmN8xRw3YbC",
  url: "https://acme.example/webhooks",
  scopes: ["merchant", "charge"],
  secret: "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw",
  description: "Production receiver",
  status: "enabled",
  disabled_reason: null,
  api_version: "2026-11-27",
  created_at: "2026-11-01T09:30:00.000Z",
};
const exampleDelivery = {
  object: "webhook_delivery",
  id: "whd_3mQ2qV9sT1pLmN8xRw3YbC",
  webhook_id: exampleWebhook.id,
  event_id: "evt_5nQ2qV9sT1pLmN8xRw3YbC",
  status: "succeeded",
  attempt_count: 2,
  next_attempt_at: null,
  last_status_code: 200,
  delivered_at: "2026-11-01T09:30:06.000Z",
  created_at: "2026-11-01T09:30:00.000Z",
  attempts: [
    {
      attempted_at: "2026-11-01T09:30:00.100Z",
      status_code: 503,
      duration_ms: 42,
      error: null,
      response_excerpt: "busy",
    },
    { attempted_at: "2026-11-01T09:30:05.200Z", status_code: 200, duration_ms: 38, error: null, response_excerpt: "" },
  ],
};

const idParam = z.object({
  webhook_id: pathId("webhook_id", exampleWebhook.id),
});
const deliveryParams = idParam.extend({
  delivery_id: pathId("delivery_id", exampleDelivery.id),
});

// POST /v1/webhooks: subscribe a URL to event scopes
const createWebhookRoute = createRoute({
  method: "post",
  path: "/v1/webhooks",
  tags: ["Webhooks"],
  summary: "Create a webhook",
  description:
    "Events of the given scopes are POSTed to `url`, signed per Standard Webhooks (`webhook-id`, `webhook-timestamp`, `webhook-signature`). Without `secret` one is generated (`whsec_` + base64 of 32 random bytes); the secret is shown in full only in this answer. In production the url must be https and resolve to public addresses.",
  security: security.isv,
  middleware: [isvOnly] as const,
  request: {
    body: {
      required: true,
      ...jsonContent(createWebhookSchema, {
        url: "https://acme.example/webhooks",
        scopes: ["merchant", "charge"],
        description: "Production receiver",
      }),
    },
  },
  responses: {
    200: { description: "The webhook, with its secret", ...jsonContent(webhookSchema, exampleWebhook) },
    ...commonErrors,
  },
});

// GET /v1/webhooks: every webhook of the account
const listWebhooksRoute = createRoute({
  method: "get",
  path: "/v1/webhooks",
  tags: ["Webhooks"],
  summary: "List webhooks",
  security: security.isv,
  middleware: [isvOnly] as const,
  responses: {
    200: {
      description: "The webhooks",
      ...jsonContent(listEnvelope(webhookSchema, "WebhookList"), {
        object: "list",
        data: [{ ...exampleWebhook, secret: "********LaSw" }],
        has_more: false,
        url: "/v1/webhooks",
      }),
    },
    ...commonErrors,
  },
});

// GET /v1/webhooks/{webhook_id}: one webhook
const getWebhookRoute = createRoute({
  method: "get",
  path: "/v1/webhooks/{webhook_id}",
  tags: ["Webhooks"],
  summary: "Get a webhook",
  security: security.isv,
  middleware: [isvOnly] as const,
  request: { params: idParam },
  responses: {
    200: {
      description: "The webhook",
      ...jsonContent(webhookSchema, { ...exampleWebhook, secret: "********LaSw" }),
    },
    ...commonErrors,
  },
});

// DELETE /v1/webhooks/{webhook_id}: stop deliveries and remove the webhook
const deleteWebhookRoute = createRoute({
  method: "delete",
  path: "/v1/webhooks/{webhook_id}",
  tags: ["Webhooks"],
  summary: "Delete a webhook",
  description: "Deliveries stop at once; pending ones are canceled.",
  security: security.isv,
  middleware: [isvOnly] as const,
  request: { params: idParam },
  responses: {
    200: {
      description: "Deleted",
      ...jsonContent(
        z
          .object({ object: z.literal("webhook"), id: z.string(), deleted: z.literal(true) })
          .meta({ id: "DeletedWebhook" }),
        {
          object: "webhook",
          id: exampleWebhook.id,
          deleted: true,
        },
      ),
    },
    ...commonErrors,
  },
});

// GET /v1/webhooks/{webhook_id}/deliveries: every delivery with its tries, newest first
const listWebhookDeliveriesRoute = createRoute({
  method: "get",
  path: "/v1/webhooks/{webhook_id}/deliveries",
  tags: ["Webhooks"],
  summary: "List a webhook's deliveries",
  security: security.isv,
  middleware: [isvOnly] as const,
  request: { params: idParam, query: listQuerySchema },
  responses: {
    200: {
      description: "Deliveries",
      ...jsonContent(listEnvelope(deliverySchema, "WebhookDeliveryList"), {
        object: "list",
        data: [exampleDelivery],
        has_more: false,
        url: `/v1/webhooks/${exampleWebhook.id}/deliveries`,
      }),
    },
    ...commonErrors,
  },
});

// POST /v1/webhooks/{webhook_id}/deliveries/{delivery_id}/retry: send a delivery again now
const replayDeliveryRoute = createRoute({
  method: "post",
  path: "/v1/webhooks/{webhook_id}/deliveries/{delivery_id}/retry",
  tags: ["Webhooks"],
  summary: "Replay a delivery",
  description:
    "Sends the event again now, with the same `webhook-id`, and retries on the usual schedule if it fails. Replaying to an endpoint disabled by a 410 enables it again.",
  security: security.isv,
  middleware: [isvOnly] as const,
  request: { params: deliveryParams },
  responses: {
    200: {
      description: "The delivery, pending",
      ...jsonContent(deliverySchema, {
        ...exampleDelivery,
        status: "pending",
        next_attempt_at: "2026-11-02T10:00:00.000Z",
      }),
    },
    ...commonErrors,
    409: conflict409,
  },
});

export function webhookRoutes(app: OpenAPIHono<AppEnv>) {
  app.openapi(createWebhookRoute, async (c) => {
    // A dashboard token adds a webhook URL only from a sign-in of the last 15 minutes (section 23).
    const principal = c.get("principal");
    if (principal.kind === "user") assertFreshSignIn(principal.signedInAt);
    const { row, secret } = await createWebhook(c.get("db"), principal.accountId, c.req.valid("json"));
    return c.json(serializeWebhook(row, secret), 200);
  });

  app.openapi(listWebhooksRoute, async (c) =>
    c.json(
      toList(
        (await listWebhooks(c.get("db"), c.get("principal").accountId)).map((w) => serializeWebhook(w)),
        false,
        "/v1/webhooks",
      ),
      200,
    ),
  );

  app.openapi(getWebhookRoute, async (c) =>
    c.json(
      serializeWebhook(await findWebhook(c.get("db"), c.get("principal").accountId, c.req.valid("param").webhook_id)),
      200,
    ),
  );

  app.openapi(deleteWebhookRoute, async (c) => {
    const row = await deleteWebhook(c.get("db"), c.get("principal").accountId, c.req.valid("param").webhook_id);
    return c.json({ object: "webhook" as const, id: row.id, deleted: true as const }, 200);
  });

  app.openapi(listWebhookDeliveriesRoute, async (c) => {
    const { webhook_id } = c.req.valid("param");
    const { rows, hasMore } = await listDeliveries(
      c.get("db"),
      c.get("principal").accountId,
      webhook_id,
      c.req.valid("query"),
    );
    return c.json(
      toList(
        rows.map((r) => serializeDelivery(r.delivery, r.attempts)),
        hasMore,
        `/v1/webhooks/${webhook_id}/deliveries`,
      ),
      200,
    );
  });

  app.openapi(replayDeliveryRoute, async (c) => {
    const { webhook_id, delivery_id } = c.req.valid("param");
    const { delivery, attempts } = await retryDelivery(
      c.get("db"),
      c.get("principal").accountId,
      webhook_id,
      delivery_id,
    );
    return c.json(serializeDelivery(delivery, attempts), 200);
  });
}
