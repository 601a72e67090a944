import { bigserial, index, jsonb, pgTable, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";

/**
 * The audit log (docs/reference.md section 17): one entry per change made by an ISV user, an API
 * key, the operator CLI or a merchant (wizard, home), written in the change's own transaction.
 * Fields are named, never their values. No code path updates or deletes an entry: a trigger
 * (migration 0020) refuses it, except the retention purge after a year (`app.audit_purge`).
 */
export const auditLogs = pgTable(
  "audit_logs",
  {
    id: text("id").primaryKey(),
    seq: bigserial("seq", { mode: "number" }).notNull(),
    /** The ISV account the entry belongs to (its reader): the ISV's own changes and its merchants'. */
    accountId: text("account_id").notNull(),
    actorType: text("actor_type", { enum: ["user", "api_key", "cli", "merchant", "isv"] }).notNull(),
    /** Who: the user's id, the key's account, the merchant's id, the operator's name for the CLI. */
    actorId: text("actor_id").notNull(),
    /** Through what, for a merchant: `wizard` or `home`; for a key: its last four characters. */
    actorVia: text("actor_via"),
    action: text("action").notNull(),
    resourceId: text("resource_id").notNull(),
    /** The names of the fields the change touched (never their values). */
    fields: jsonb("fields").$type<string[]>().notNull().default([]),
    requestId: text("request_id"),
    clientAddress: text("client_address"),
    createdAt: timestamp("created_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("audit_logs_seq_key").on(t.seq),
    index("audit_logs_account_seq_idx").on(t.accountId, t.seq),
    index("audit_logs_resource_idx").on(t.accountId, t.resourceId, t.seq),
    index("audit_logs_created_idx").on(t.createdAt),
  ],
);

export type AuditLogRow = typeof auditLogs.$inferSelect;
