import { index, jsonb, pgTable, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";

import type { SessionComponents } from "../../schemas/account-sessions";
import { merchants } from "./merchants";

/**
 * An account session (docs/reference.md section 15): the components an ISV's page may embed for one
 * merchant. Its client secret's SHA-256 alone is kept; the secret is exchanged once (`exchanged_at`)
 * for the frame's own session, within its hour.
 */
export const accountSessions = pgTable(
  "account_sessions",
  {
    id: text("id").primaryKey(),
    isvAccountId: text("isv_account_id").notNull(),
    merchantId: text("merchant_id")
      .notNull()
      .references(() => merchants.id),
    components: jsonb("components").$type<SessionComponents>().notNull(),
    secretDigest: text("secret_digest").notNull(),
    expiresAt: timestamp("expires_at", { withTimezone: true, mode: "date" }).notNull(),
    exchangedAt: timestamp("exchanged_at", { withTimezone: true, mode: "date" }),
    createdAt: timestamp("created_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("account_sessions_secret_key").on(t.secretDigest),
    index("account_sessions_merchant_idx").on(t.merchantId, t.createdAt),
    index("account_sessions_expires_idx").on(t.expiresAt),
  ],
);

export type AccountSessionRow = typeof accountSessions.$inferSelect;
