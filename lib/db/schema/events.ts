import { sql } from "drizzle-orm";
import { bigserial, index, integer, jsonb, pgTable, text, timestamp } from "drizzle-orm/pg-core";

import type { EventType } from "../../events/catalogue";

// Every state change writes its event here in the same transaction; webhooks deliver from it.
export const events = pgTable(
  "events",
  {
    id: text("id").primaryKey(),
    seq: bigserial("seq", { mode: "number" }).notNull(),
    accountId: text("account_id").notNull(),
    type: text("type").$type<EventType>().notNull(),
    objectId: text("object_id").notNull(),
    /** The resource as the API returns it (masked). */
    data: jsonb("data").$type<Record<string, unknown>>().notNull(),
    createdAt: timestamp("created_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
  },
  (t) => [index("events_account_seq_idx").on(t.accountId, t.seq), index("events_object_idx").on(t.objectId)],
);

// The durable job table shared by all background work (underwriting, webhooks, e-mail...).
export const jobs = pgTable(
  "jobs",
  {
    id: text("id").primaryKey(),
    type: text("type").notNull(),
    payload: jsonb("payload").$type<Record<string, unknown>>().notNull(),
    status: text("status", { enum: ["queued", "running", "done", "failed"] })
      .notNull()
      .default("queued"),
    attempts: integer("attempts").notNull().default(0),
    runAt: timestamp("run_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
    lockedAt: timestamp("locked_at", { withTimezone: true, mode: "date" }),
    maxAttempts: integer("max_attempts").notNull().default(8),
    /** Lower runs first among ready jobs (underwriting before webhook deliveries). */
    priority: integer("priority").notNull().default(100),
    lastError: text("last_error"),
    /**
     * What the job holds while it runs, for per-key caps (a webhook delivery: its account and its
     * destination host): a worker with limits never runs more than the cap of one key at once.
     */
    concurrencyKeys: text("concurrency_keys")
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    createdAt: timestamp("created_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
  },
  (t) => [index("jobs_ready_idx").on(t.status, t.priority, t.runAt), index("jobs_type_idx").on(t.type, t.status)],
);

// Row types live beside their tables (the domain and the serializers import them from here).
export type EventRow = typeof events.$inferSelect;
export type JobRow = typeof jobs.$inferSelect;
