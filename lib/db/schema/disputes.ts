import { sql } from "drizzle-orm";
import { bigserial, check, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";

import { disputeReasons, disputeStatuses, type Evidence } from "../../schemas/disputes";
import { merchants } from "./merchants";
import { charges } from "./payments";

/**
 * A dispute (docs/reference.md section 16): the customer asked the card's bank for a settled
 * charge's money back. Its status moves only by the named moves of lib/domain/disputes/rules.ts.
 * The settlement after it opened takes `amount` and `fee` (`settlement_id`); when it is won, the
 * settlement after that returns `amount` (`won_settlement_id`).
 */
export const disputes = pgTable(
  "disputes",
  {
    id: text("id").primaryKey(),
    seq: bigserial("seq", { mode: "number" }).notNull(),
    isvAccountId: text("isv_account_id").notNull(),
    merchantId: text("merchant_id")
      .notNull()
      .references(() => merchants.id),
    chargeId: text("charge_id")
      .notNull()
      .references(() => charges.id),
    amount: integer("amount").notNull(),
    fee: integer("fee").notNull(),
    /** What it cost the platform (the ISV's `dispute_cost`) and the ISV's margin on it (fee − costs): the ISV's eyes only. */
    costs: integer("costs"),
    margin: integer("margin"),
    currency: text("currency").notNull().default("usd"),
    reason: text("reason", { enum: disputeReasons }).notNull(),
    status: text("status", { enum: disputeStatuses }).notNull(),
    evidence: jsonb("evidence").$type<Partial<Evidence>>().notNull().default({}),
    evidenceDueBy: timestamp("evidence_due_by", { withTimezone: true, mode: "date" }).notNull(),
    submittedAt: timestamp("submitted_at", { withTimezone: true, mode: "date" }),
    closedAt: timestamp("closed_at", { withTimezone: true, mode: "date" }),
    createdAt: timestamp("created_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("disputes_seq_key").on(t.seq),
    // One dispute per charge, whatever races above it (a second report of the same dispute adds none).
    uniqueIndex("disputes_charge_key").on(t.chargeId),
    index("disputes_isv_seq_idx").on(t.isvAccountId, t.seq),
    index("disputes_isv_created_idx").on(t.isvAccountId, t.createdAt),
    index("disputes_merchant_idx").on(t.merchantId, t.seq),
    index("disputes_open_due_idx")
      .on(t.evidenceDueBy)
      .where(sql`${t.status} = 'needs_response'`),
    check("disputes_amount_positive", sql`${t.amount} > 0`),
    check("disputes_fee_not_negative", sql`${t.fee} >= 0`),
    check("disputes_closed_at", sql`(${t.status} in ('won', 'lost')) = (${t.closedAt} is not null)`),
  ],
);

export type DisputeRow = typeof disputes.$inferSelect;
