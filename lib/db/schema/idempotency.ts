import { integer, jsonb, pgTable, primaryKey, text, timestamp } from "drizzle-orm/pg-core";

// Idempotency-Key records: the first request's answer, replayed for 24 hours.
export const idempotencyKeys = pgTable(
  "idempotency_keys",
  {
    accountId: text("account_id").notNull(),
    key: text("key").notNull(),
    method: text("method").notNull(),
    path: text("path").notNull(),
    requestDigest: text("request_digest").notNull(),
    // null while the first request is still running
    responseStatus: integer("response_status"),
    responseBody: jsonb("response_body"),
    createdAt: timestamp("created_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.accountId, t.key] })],
);

// Row types live beside their tables (the domain and the serializers import them from here).
export type IdempotencyKeyRow = typeof idempotencyKeys.$inferSelect;
