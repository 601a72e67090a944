import { bigserial, index, integer, pgTable, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";

import { settlementPayoutStatuses } from "../../schemas/payouts";
import { merchants } from "./merchants";

// A day's settlement of one merchant (docs/reference.md section 13): its AUTHORIZED charges and the
// refunds since the last settlement, with totals that its lines add up to exactly.
export const settlements = pgTable(
  "settlements",
  {
    id: text("id").primaryKey(),
    seq: bigserial("seq", { mode: "number" }).notNull(),
    isvAccountId: text("isv_account_id").notNull(),
    merchantId: text("merchant_id")
      .notNull()
      .references(() => merchants.id),
    currency: text("currency").notNull().default("usd"),
    chargeCount: integer("charge_count").notNull(),
    refundCount: integer("refund_count").notNull(),
    gross: integer("gross").notNull(),
    refunds: integer("refunds").notNull(),
    /** ACH charges returned since the last settlement: their amounts are taken back. */
    returnCount: integer("return_count").notNull().default(0),
    returns: integer("returns").notNull().default(0),
    /** Returns the banks reversed since the last settlement (after this platform took them back): paid back. */
    reversalCount: integer("reversal_count").notNull().default(0),
    reversals: integer("reversals").notNull().default(0),
    fees: integer("fees").notNull(),
    /** Disputes opened since the last settlement: their amounts and their fees are taken. */
    disputeCount: integer("dispute_count").notNull().default(0),
    disputes: integer("disputes").notNull().default(0),
    disputeFees: integer("dispute_fees").notNull().default(0),
    /** Disputes won since the last settlement (after their amounts were taken): paid back (not the fee). */
    disputeWonCount: integer("dispute_won_count").notNull().default(0),
    disputesWon: integer("disputes_won").notNull().default(0),
    /** The ISV's platform fees of its charges, less what its refunds gave back (section 19). */
    platformFees: integer("platform_fees").notNull().default(0),
    /** The previous settlement's net when it was negative (refunds, returns): taken from this one (<= 0). */
    carriedIn: integer("carried_in").notNull().default(0),
    net: integer("net").notNull(),
    payoutStatus: text("payout_status", { enum: settlementPayoutStatuses }).notNull(),
    /** Charges and refunds made before this instant are in it. */
    cutoff: timestamp("cutoff", { withTimezone: true, mode: "date" }).notNull(),
    createdAt: timestamp("created_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("settlements_seq_key").on(t.seq),
    index("settlements_isv_seq_idx").on(t.isvAccountId, t.seq),
    index("settlements_merchant_idx").on(t.merchantId, t.seq),
  ],
);

export type SettlementRow = typeof settlements.$inferSelect;
