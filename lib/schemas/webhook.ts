import { z } from "zod";

import { eventCatalogue, eventTypes, webhookScopes } from "../events/catalogue";
import { apiVersionSchema } from "./api-version";
import { httpUrl } from "./atoms";

// Webhooks, their deliveries and events (docs/reference.md section 9): for the API, the dashboard's
// server actions and the OpenAPI document.

export const createWebhookSchema = z
  .strictObject({
    url: httpUrl,
    scopes: z
      .array(z.enum(webhookScopes, { error: `must be ${webhookScopes.join(" or ")}` }))
      .min(1, "must list at least one scope"),
    secret: z.string().min(16, "must be 16 to 128 characters").max(128, "must be 16 to 128 characters").optional(),
    description: z.string().max(500).optional(),
    api_version: apiVersionSchema
      .optional()
      .meta({ description: "The API version its events are written in (default: the account's, /docs/changelog)" }),
  })
  .meta({ id: "CreateWebhookRequest" });
export type CreateWebhookInput = z.infer<typeof createWebhookSchema>;

export const webhookSchema = z
  .object({
    object: z.literal("webhook"),
    id: z.string(),
    url: z.string(),
    scopes: z.array(z.enum(webhookScopes)),
    secret: z.string().meta({ description: "In full only in the create answer; masked afterwards" }),
    description: z.string().nullable(),
    status: z.enum(["enabled", "disabled"]),
    disabled_reason: z.string().nullable(),
    api_version: z.string().meta({ description: "The API version its events are written in" }),
    created_at: z.string(),
  })
  .meta({ id: "Webhook" });

export const deliverySchema = z
  .object({
    object: z.literal("webhook_delivery"),
    id: z.string(),
    webhook_id: z.string(),
    event_id: z.string(),
    status: z.enum(["pending", "succeeded", "failed", "canceled"]),
    attempt_count: z.number().int(),
    next_attempt_at: z.string().nullable(),
    last_status_code: z.number().int().nullable(),
    delivered_at: z.string().nullable(),
    created_at: z.string(),
    attempts: z.array(
      z.object({
        attempted_at: z.string(),
        status_code: z.number().int().nullable(),
        duration_ms: z.number().int(),
        error: z.string().nullable(),
        response_excerpt: z.string().nullable(),
      }),
    ),
  })
  .meta({ id: "WebhookDelivery" });

const catalogueTable = eventTypes
  .map(
    (t) =>
      `- \`${t}\` (scope \`${eventCatalogue[t].scope}\`, \`data.object\`: ${eventCatalogue[t].resource}): ${eventCatalogue[t].description}`,
  )
  .join("\n");

export const eventSchema = z
  .object({
    id: z.string(),
    object: z.literal("event"),
    type: z.enum(eventTypes).meta({ description: `The event catalog:\n\n${catalogueTable}` }),
    created_at: z.string(),
    account_id: z.string(),
    data: z.object({
      object: z.record(z.string(), z.unknown()).meta({ description: "The resource as the API returns it (masked)" }),
    }),
  })
  .meta({ id: "Event" });
