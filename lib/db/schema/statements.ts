import { bigserial, boolean, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";

import type { DisputeReason, DisputeStatus } from "../../schemas/disputes";
import type { PayoutFailureCode, PayoutStatus } from "../../schemas/payouts";
import { merchants } from "./merchants";

export type StatementItem = {
  kind: "charge" | "refund" | "return" | "return_reversal";
  id: string;
  charge_id: string;
  created_at: string;
  amount: number;
  fee: number;
  card_brand: string | null;
  card_last_4: string | null;
  card_entry_method: string | null;
};
export type StatementFeeLine = {
  kind: "processing" | "monthly" | "ach_activity" | "dispute";
  model: string;
  description: string;
  count: number;
  amount: number;
};
export type StatementBrand = { brand: string; count: number; volume: number };
/** A day of the statement: its charges, the refunds made that day, the ACH returns taken that day less the returns reversed that day, and its fees. */
export type StatementDay = {
  date: string;
  charges: number;
  volume: number;
  refunds: number;
  returns: number;
  fees: number;
};

/** A payout made in the statement's month, as it stood when the statement was made (docs/reference.md section 16). */
export type StatementPayout = {
  id: string;
  settlement_id: string | null;
  created_at: string;
  amount: number;
  status: PayoutStatus;
  arrival_date: string | null;
  failure_code: PayoutFailureCode | null;
};

/**
 * A dispute of the statement's month (opened, or closed, in it), as it stood when the statement was
 * made: its amount and its fee left the merchant's settlements; a won one's amount came back.
 */
export type StatementDispute = {
  id: string;
  charge_id: string;
  created_at: string;
  reason: DisputeReason;
  status: DisputeStatus;
  amount: number;
  fee: number;
  /** When it was won or lost (null while open). */
  closed_at?: string | null;
  /** Whether the amount was taken in the month (opened in it), and returned in it (won in it). */
  opened_in_period: boolean;
  won_in_period: boolean;
};

// A merchant's monthly statement (docs/reference.md section 11): a snapshot of the month, written once
// per merchant and period; what happens later never changes it.
export const statements = pgTable(
  "statements",
  {
    id: text("id").primaryKey(),
    seq: bigserial("seq", { mode: "number" }).notNull(),
    isvAccountId: text("isv_account_id").notNull(),
    merchantId: text("merchant_id")
      .notNull()
      .references(() => merchants.id),
    period: text("period").notNull(),
    currency: text("currency").notNull().default("usd"),
    chargeCount: integer("charge_count").notNull(),
    refundCount: integer("refund_count").notNull(),
    grossVolume: integer("gross_volume").notNull(),
    refunds: integer("refunds").notNull(),
    returnCount: integer("return_count").notNull().default(0),
    returns: integer("returns").notNull().default(0),
    reversalCount: integer("reversal_count").notNull().default(0),
    reversals: integer("reversals").notNull().default(0),
    fees: integer("fees").notNull(),
    /** The ISV's platform fees of the month, less what refunds gave back (section 19). */
    platformFees: integer("platform_fees").notNull().default(0),
    net: integer("net").notNull(),
    feeLines: jsonb("fee_lines").$type<StatementFeeLine[]>().notNull(),
    cardBrands: jsonb("card_brands").$type<StatementBrand[]>().notNull(),
    dailyTotals: jsonb("daily_totals").$type<StatementDay[]>().notNull(),
    items: jsonb("items").$type<StatementItem[]>().notNull(),
    payouts: jsonb("payouts").$type<StatementPayout[]>().notNull().default([]),
    disputes: jsonb("disputes").$type<StatementDispute[]>().notNull().default([]),
    // Made after its month ended: final, a snapshot. Made before (sandbox): a preview, made again
    // with the month's later activity each time it is generated, until the month ends.
    final: boolean("final").notNull().default(true),
    createdAt: timestamp("created_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("statements_seq_key").on(t.seq),
    uniqueIndex("statements_merchant_period_key").on(t.merchantId, t.period),
    index("statements_isv_idx").on(t.isvAccountId, t.seq),
  ],
);

export type StatementRow = typeof statements.$inferSelect;

/**
 * A merchant's month-end bill (docs/reference.md section 13): the fees the platform charges once a
 * month has ended (its ACH activity fees and monthly fees, from the month's ledger postings and the
 * merchant's pricing), one per merchant and period, made by the billing job and posted to the ledger
 * in the same transaction (`monthly_fee` postings whose source is the bill). The month's statement
 * reads it; the next settlement takes its postings. A bill and its month's statement share one id
 * (`stmt_...`): the fees' balance transactions name the statement they are stated on.
 */
export const merchantBills = pgTable(
  "merchant_bills",
  {
    id: text("id").primaryKey(),
    isvAccountId: text("isv_account_id").notNull(),
    merchantId: text("merchant_id")
      .notNull()
      .references(() => merchants.id),
    period: text("period").notNull(),
    /** Its fee lines (kinds `ach_activity` then `monthly`), each posted as one `monthly_fee`. */
    lines: jsonb("lines").$type<StatementFeeLine[]>().notNull(),
    /** The lines' sum, in cents: what its postings took from the merchant. */
    total: integer("total").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex("merchant_bills_merchant_period_key").on(t.merchantId, t.period)],
);

export type MerchantBillRow = typeof merchantBills.$inferSelect;
