import { sql } from "drizzle-orm";
import { check, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";

import { merchants } from "./merchants";

/**
 * A merchant's debit card for instant payouts by `push_to_card` (docs/reference.md section 20),
 * owned by lib/domain/payouts/payout-card.ts: tokenized through the card frame, its number and CVC
 * only in the processor's vault (this row keeps what the vault answered, never the number). One
 * card per merchant at a time: a new one removes the last. Instant payouts reach it from
 * `usable_from` (the ISV's `new_bank_account_hold_days` business days after it was added).
 */
export const payoutCards = pgTable(
  "payout_cards",
  {
    id: text("id").primaryKey(),
    merchantId: text("merchant_id")
      .notNull()
      .references(() => merchants.id),
    brand: text("brand").notNull(),
    last4: text("last4").notNull(),
    expMonth: integer("exp_month").notNull(),
    expYear: integer("exp_year").notNull(),
    fingerprint: text("fingerprint").notNull(),
    /** What the processor keeps to push money to the card later (never the number or the CVC). */
    vault: jsonb("vault").$type<Record<string, unknown>>().notNull(),
    usableFrom: timestamp("usable_from", { withTimezone: true, mode: "date" }).notNull(),
    createdAt: timestamp("created_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
    removedAt: timestamp("removed_at", { withTimezone: true, mode: "date" }),
  },
  (t) => [
    index("payout_cards_merchant_idx").on(t.merchantId, t.createdAt),
    uniqueIndex("payout_cards_one_active_key")
      .on(t.merchantId)
      .where(sql`${t.removedAt} is null`),
    check("payout_cards_expiry", sql`${t.expMonth} between 1 and 12`),
  ],
);

export type PayoutCardRow = typeof payoutCards.$inferSelect;
