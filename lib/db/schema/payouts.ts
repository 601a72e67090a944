import { sql } from "drizzle-orm";
import { bigserial, check, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";

import type { PayoutDestination } from "../../schemas/payout-bank-account";
import { payoutFailureCodes, payoutHeldReasons, payoutStatuses } from "../../schemas/payouts";
import { merchants } from "./merchants";
import { residuals } from "./residuals";
import { settlements } from "./settlements";

/**
 * A payout (docs/reference.md section 16): what one settlement owes the merchant, on its way to the
 * merchant's bank. Its status moves only by the named moves of lib/domain/payouts/rules.ts. A payout
 * that failed is replaced by a new one (`replaces`) once the merchant's new bank account is verified.
 */
export const payouts = pgTable(
  "payouts",
  {
    id: text("id").primaryKey(),
    seq: bigserial("seq", { mode: "number" }).notNull(),
    isvAccountId: text("isv_account_id").notNull(),
    merchantId: text("merchant_id")
      .notNull()
      .references(() => merchants.id),
    settlementId: text("settlement_id")
      .notNull()
      .references(() => settlements.id),
    /** The failed payout this one pays again (null: the settlement's first). */
    replaces: text("replaces"),
    amount: integer("amount").notNull(),
    currency: text("currency").notNull().default("usd"),
    status: text("status", { enum: payoutStatuses }).notNull(),
    heldReason: text("held_reason", { enum: payoutHeldReasons }),
    failureCode: text("failure_code", { enum: payoutFailureCodes }),
    /** YYYY-MM-DD: the business day the money is due in the bank (set when it is sent). */
    arrivalDate: text("arrival_date"),
    bankLast4: text("bank_last4"),
    bankName: text("bank_name"),
    createdAt: timestamp("created_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("payouts_seq_key").on(t.seq),
    index("payouts_isv_seq_idx").on(t.isvAccountId, t.seq),
    index("payouts_merchant_idx").on(t.merchantId, t.seq),
    // One first payout per settlement, and one replacement per failed payout: a second run adds none.
    uniqueIndex("payouts_settlement_first_key")
      .on(t.settlementId)
      .where(sql`${t.replaces} is null`),
    uniqueIndex("payouts_replaces_key").on(t.replaces),
    check("payouts_amount_positive", sql`${t.amount} > 0`),
    check("payouts_held_reason", sql`(${t.status} = 'held') = (${t.heldReason} is not null)`),
    check("payouts_failure_code", sql`(${t.status} = 'failed') = (${t.failureCode} is not null)`),
  ],
);

export type PayoutRow = typeof payouts.$inferSelect;

/**
 * A payout to an ISV's own bank account (docs/reference.md section 19): a positive residual. The same
 * life as a merchant's payout (pending → in_transit → paid | failed); a failed one is paid again by a
 * new payout (`replaces`) once the ISV gives a bank account that is verified.
 */
export const accountPayouts = pgTable(
  "account_payouts",
  {
    id: text("id").primaryKey(),
    seq: bigserial("seq", { mode: "number" }).notNull(),
    isvAccountId: text("isv_account_id").notNull(),
    residualId: text("residual_id")
      .notNull()
      .references(() => residuals.id),
    replaces: text("replaces"),
    amount: integer("amount").notNull(),
    currency: text("currency").notNull().default("usd"),
    status: text("status", { enum: payoutStatuses }).notNull(),
    failureCode: text("failure_code", { enum: payoutFailureCodes }),
    arrivalDate: text("arrival_date"),
    bankLast4: text("bank_last4"),
    bankName: text("bank_name"),
    /** The bank account the payout was made for, its number encrypted: it is sent to and settled against this one, whatever the ISV gives later (null: made before destinations were kept). */
    destination: jsonb("destination").$type<PayoutDestination>(),
    createdAt: timestamp("created_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("account_payouts_seq_key").on(t.seq),
    index("account_payouts_isv_seq_idx").on(t.isvAccountId, t.seq),
    // One first payout per residual, and one replacement per failed payout.
    uniqueIndex("account_payouts_residual_first_key")
      .on(t.residualId)
      .where(sql`${t.replaces} is null`),
    uniqueIndex("account_payouts_replaces_key").on(t.replaces),
    check("account_payouts_amount_positive", sql`${t.amount} > 0`),
    check("account_payouts_failure_code", sql`(${t.status} = 'failed') = (${t.failureCode} is not null)`),
    check("account_payouts_not_held", sql`${t.status} <> 'held'`),
  ],
);
export type AccountPayoutRow = typeof accountPayouts.$inferSelect;
