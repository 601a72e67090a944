import { index, integer, jsonb, pgTable, text, timestamp } from "drizzle-orm/pg-core";

import type { WebhookScope } from "../../events/catalogue";

export const webhooks = pgTable(
  "webhooks",
  {
    id: text("id").primaryKey(),
    accountId: text("account_id").notNull(),
    url: text("url").notNull(),
    scopes: jsonb("scopes").$type<WebhookScope[]>().notNull(),
    /** The API version its events are written in (section 22); null: its account's. */
    apiVersion: text("api_version"),
    /** The signing secret, encrypted at rest (it must be read back to sign). */
    secret: jsonb("secret").$type<{ $enc: string; last4: string }>().notNull(),
    description: text("description"),
    status: text("status", { enum: ["enabled", "disabled"] })
      .notNull()
      .default("enabled"),
    disabledReason: text("disabled_reason"),
    createdAt: timestamp("created_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
    deletedAt: timestamp("deleted_at", { withTimezone: true, mode: "date" }),
  },
  (t) => [index("webhooks_account_idx").on(t.accountId)],
);

/** One per (webhook, event): the unit that is retried until delivered. */
export const webhookDeliveries = pgTable(
  "webhook_deliveries",
  {
    id: text("id").primaryKey(),
    seq: integer("seq").generatedAlwaysAsIdentity(),
    webhookId: text("webhook_id").notNull(),
    accountId: text("account_id").notNull(),
    eventId: text("event_id").notNull(),
    status: text("status", { enum: ["pending", "succeeded", "failed", "canceled"] })
      .notNull()
      .default("pending"),
    attempts: integer("attempts").notNull().default(0),
    nextAttemptAt: timestamp("next_attempt_at", { withTimezone: true, mode: "date" }),
    lastStatusCode: integer("last_status_code"),
    deliveredAt: timestamp("delivered_at", { withTimezone: true, mode: "date" }),
    createdAt: timestamp("created_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
  },
  (t) => [
    index("webhook_deliveries_webhook_idx").on(t.webhookId, t.seq),
    index("webhook_deliveries_event_idx").on(t.eventId),
  ],
);

export const webhookAttempts = pgTable(
  "webhook_attempts",
  {
    id: text("id").primaryKey(),
    deliveryId: text("delivery_id").notNull(),
    attemptedAt: timestamp("attempted_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
    statusCode: integer("status_code"),
    durationMs: integer("duration_ms").notNull(),
    error: text("error"),
    responseExcerpt: text("response_excerpt"),
  },
  (t) => [index("webhook_attempts_delivery_idx").on(t.deliveryId, t.attemptedAt)],
);

// Row types live beside their tables (the domain and the serializers import them from here).
export type WebhookRow = typeof webhooks.$inferSelect;
export type WebhookDeliveryRow = typeof webhookDeliveries.$inferSelect;
export type WebhookAttemptRow = typeof webhookAttempts.$inferSelect;
