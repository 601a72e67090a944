import { index, jsonb, pgTable, text, timestamp } from "drizzle-orm/pg-core";

// Every e-mail the platform sends is written here first (in the transaction that causes it); a
// job sends it over SMTP when SMTP_URL is set. Without SMTP the outbox is where it stays, readable
// by the operator CLI and, in sandbox, GET /v1/test_helpers/outbox.
export const outbox = pgTable(
  "outbox",
  {
    id: text("id").primaryKey(),
    accountId: text("account_id").notNull(),
    merchantId: text("merchant_id"),
    kind: text("kind").notNull(),
    /** E-mail, or a text message (SMS) through the SMS sender interface. */
    channel: text("channel", { enum: ["email", "sms"] })
      .notNull()
      .default("email"),
    to: text("to").notNull(),
    /** The From line's display name: the business a customer pays, or the ISV's brand (the address is SMTP_FROM's). */
    senderName: text("sender_name"),
    subject: text("subject").notNull(),
    text: text("text").notNull(),
    html: text("html").notNull(),
    locale: text("locale").notNull(),
    transport: text("transport", { enum: ["outbox", "smtp"] }).notNull(),
    sentAt: timestamp("sent_at", { withTimezone: true, mode: "date" }),
    error: text("error"),
    meta: jsonb("meta").$type<Record<string, unknown>>(),
    createdAt: timestamp("created_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
  },
  (t) => [index("outbox_account_idx").on(t.accountId, t.createdAt)],
);

// Row types live beside their tables (the domain and the serializers import them from here).
export type OutboxRow = typeof outbox.$inferSelect;
