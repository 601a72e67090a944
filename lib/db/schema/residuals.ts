import { sql } from "drizzle-orm";
import {
  bigint,
  bigserial,
  check,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
} from "drizzle-orm/pg-core";

import { residualStatuses } from "../../schemas/residuals";

// What an ISV earned in a month (docs/reference.md section 19): one residual per ISV and month, and
// its lines, one per merchant. Sums of a month of charges pass 2^31 cents: bigint (read as numbers).
const cents = (name: string) => bigint(name, { mode: "number" }).notNull();

export const residuals = pgTable(
  "residuals",
  {
    id: text("id").primaryKey(),
    seq: bigserial("seq", { mode: "number" }).notNull(),
    isvAccountId: text("isv_account_id").notNull(),
    period: text("period").notNull(),
    volume: cents("volume"),
    count: integer("count").notNull(),
    merchantFees: cents("merchant_fees"),
    costs: cents("costs"),
    margin: cents("margin"),
    revenueSharePercent: integer("revenue_share_percent").notNull(),
    share: cents("share"),
    platformFees: cents("platform_fees"),
    adjustments: cents("adjustments").default(0),
    carriedIn: cents("carried_in").default(0),
    amount: cents("amount"),
    status: text("status", { enum: residualStatuses }).notNull(),
    payoutId: text("payout_id"),
    lineCount: integer("line_count").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("residuals_seq_key").on(t.seq),
    // One residual per ISV and month, whatever runs at once (the job, the sandbox's helper).
    uniqueIndex("residuals_isv_period_key").on(t.isvAccountId, t.period),
    index("residuals_isv_seq_idx").on(t.isvAccountId, t.seq),
    check("residuals_carried_in_not_positive", sql`${t.carriedIn} <= 0`),
  ],
);
export type ResidualRow = typeof residuals.$inferSelect;

export const residualLines = pgTable(
  "residual_lines",
  {
    residualId: text("residual_id")
      .notNull()
      .references(() => residuals.id),
    /** Its place in the residual (lines are listed by it). */
    position: integer("position").notNull(),
    merchantId: text("merchant_id").notNull(),
    volume: cents("volume"),
    count: integer("count").notNull(),
    merchantFees: cents("merchant_fees"),
    costs: cents("costs"),
    margin: cents("margin"),
    share: cents("share"),
    platformFees: cents("platform_fees"),
    amount: cents("amount"),
  },
  (t) => [
    primaryKey({ columns: [t.residualId, t.position] }),
    uniqueIndex("residual_lines_merchant_key").on(t.residualId, t.merchantId),
  ],
);
export type ResidualLineRow = typeof residualLines.$inferSelect;
