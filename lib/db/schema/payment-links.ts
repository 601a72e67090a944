import { sql } from "drizzle-orm";
import { bigserial, boolean, check, index, integer, jsonb, pgTable, text, timestamp } from "drizzle-orm/pg-core";

import { merchants } from "./merchants";
import type { SubscriptionItem } from "./subscriptions";

// Payment links (docs/reference.md section 21), owned by lib/domain/payment-links: a reusable URL
// (and its QR code) whose every visit makes a payment request (`payment_requests.payment_link_id`)
// and sends the customer to its pay page. One of: a fixed amount, items, or the customer's choice
// between `min_amount` and `max_amount`.

export const paymentLinks = pgTable(
  "payment_links",
  {
    id: text("id").primaryKey(),
    seq: bigserial("seq", { mode: "number" }).notNull(),
    isvAccountId: text("isv_account_id").notNull(),
    merchantId: text("merchant_id")
      .notNull()
      .references(() => merchants.id),
    amount: integer("amount"),
    items: jsonb("items").$type<SubscriptionItem[]>(),
    minAmount: integer("min_amount"),
    maxAmount: integer("max_amount"),
    description: text("description"),
    maxUses: integer("max_uses"),
    /** Payments made through the link so far; at `max_uses` it turns itself off. */
    paidCount: integer("paid_count").notNull().default(0),
    expiresAt: timestamp("expires_at", { withTimezone: true, mode: "date" }),
    active: boolean("active").notNull().default(true),
    metadata: jsonb("metadata").$type<Record<string, string>>().notNull().default({}),
    createdAt: timestamp("created_at", { withTimezone: true, mode: "date" }).notNull(),
    updatedAt: timestamp("updated_at", { withTimezone: true, mode: "date" }).notNull(),
  },
  (t) => [
    index("payment_links_isv_seq_idx").on(t.isvAccountId, t.seq),
    index("payment_links_merchant_seq_idx").on(t.merchantId, t.seq),
    check(
      "payment_links_one_amount",
      sql`(case when ${t.amount} is not null then 1 else 0 end) + (case when ${t.items} is not null then 1 else 0 end) + (case when ${t.minAmount} is not null then 1 else 0 end) = 1`,
    ),
  ],
);
export type PaymentLinkRow = typeof paymentLinks.$inferSelect;
