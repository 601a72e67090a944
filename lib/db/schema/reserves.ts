import { sql } from "drizzle-orm";
import { check, index, integer, pgTable, text, timestamp } from "drizzle-orm/pg-core";

import { reserveCreators, reserveStatuses, reserveTypes } from "../../schemas/reserves";

/**
 * A reserve on a merchant's money (docs/reference.md section 20), owned by `lib/domain/reserves`.
 * What it holds is in the ledger: its `reserve_hold` and `reserve_release` postings (their source is
 * its id) move money between the merchant's `available` and `reserved`.
 */
export const reserves = pgTable(
  "reserves",
  {
    id: text("id").primaryKey(),
    isvAccountId: text("isv_account_id").notNull(),
    merchantId: text("merchant_id").notNull(),
    type: text("type", { enum: reserveTypes }).notNull(),
    /** `rolling`: basis points of each settlement's net. */
    percentBps: integer("percent_bps"),
    /** `rolling`: days each hold is kept. */
    holdDays: integer("hold_days"),
    /** `fixed`: cents to hold. */
    amount: integer("amount"),
    /** `fixed`: YYYY-MM-DD on which it is released by itself. */
    releaseOn: text("release_on"),
    reason: text("reason").notNull(),
    status: text("status", { enum: reserveStatuses }).notNull().default("active"),
    createdBy: text("created_by", { enum: reserveCreators }).notNull(),
    createdAt: timestamp("created_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
    releasedAt: timestamp("released_at", { withTimezone: true, mode: "date" }),
  },
  (t) => [
    index("reserves_merchant_idx").on(t.merchantId, t.createdAt),
    // The daily release and each settlement look only at the active ones.
    index("reserves_active_idx")
      .on(t.merchantId)
      .where(sql`${t.status} = 'active'`),
    check(
      "reserves_terms",
      sql`(${t.type} = 'rolling' and ${t.percentBps} between 1 and 10000 and ${t.holdDays} between 1 and 365 and ${t.amount} is null and ${t.releaseOn} is null)
        or (${t.type} = 'fixed' and ${t.amount} > 0 and ${t.percentBps} is null and ${t.holdDays} is null)`,
    ),
    check("reserves_released", sql`(${t.status} = 'released') = (${t.releasedAt} is not null)`),
  ],
);

export type ReserveRow = typeof reserves.$inferSelect;
