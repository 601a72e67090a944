import { sql } from "drizzle-orm";
import {
  bigserial,
  boolean,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
} from "drizzle-orm/pg-core";

import { instantPayoutRails } from "../../schemas/instant-payouts";
import type { PayoutDestination } from "../../schemas/payout-bank-account";
import {
  payoutFailureCodes,
  payoutHeldReasons,
  payoutMethods,
  payoutRecipients,
  payoutStatuses,
} from "../../schemas/payouts";
import { merchants } from "./merchants";
import { payoutCards } from "./payout-cards";
import { residuals } from "./residuals";
import { settlements } from "./settlements";

/**
 * A payout (docs/reference.md sections 16 and 19), to either recipient: a merchant (`merchant_id`;
 * the settlement it came from, `settlement_id`, kept as provenance) or the ISV's own bank account
 * (`residual_id`: the residual it pays). Its status moves only by the named moves of
 * lib/domain/payouts/rules.ts. A payout that failed is replaced by a new one (`replaces`) once the
 * recipient's new bank account is verified.
 */
export const payouts = pgTable(
  "payouts",
  {
    id: text("id").primaryKey(),
    seq: bigserial("seq", { mode: "number" }).notNull(),
    isvAccountId: text("isv_account_id").notNull(),
    recipient: text("recipient", { enum: payoutRecipients }).notNull().default("merchant"),
    /** The merchant paid (null: the ISV's own payout). */
    merchantId: text("merchant_id").references(() => merchants.id),
    /** The settlement that made it (a merchant's payout; provenance only; null: made on a schedule's day with no settlement, or asked for). */
    settlementId: text("settlement_id").references(() => settlements.id),
    /** The residual it pays (the ISV's own payout). */
    residualId: text("residual_id").references(() => residuals.id),
    /**
     * Made by the payout schedule (or a replacement of a failed payout): it pays out the settled
     * postings not paid out yet, its lines. False: asked for by `POST /v1/payouts`; it has no lines
     * and its own `payout` posting is a line of the next automatic payout (docs/reference.md section 20).
     */
    automatic: boolean("automatic").notNull().default(true),
    method: text("method", { enum: payoutMethods }).notNull().default("standard"),
    /** The failed payout this one pays again (null: the first). */
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
    /** An instant payout's fee (cents, taken from the balance besides the amount), and the ISV's markup in it. */
    fee: integer("fee"),
    feeMarkup: integer("fee_markup"),
    /** An instant payout's rail: `rtp` (the bank account by RTP or FedNow) or `push_to_card`. */
    rail: text("rail", { enum: instantPayoutRails }),
    /** A `push_to_card` payout's debit card, and its brand and last four as they were when it was made. */
    payoutCardId: text("payout_card_id").references(() => payoutCards.id),
    cardBrand: text("card_brand"),
    cardLast4: text("card_last4"),
    /** The bank account the payout was made for, its number encrypted (the ISV's payouts: sent to and settled against this one, whatever the ISV gives later; null: the merchant's current account). */
    destination: jsonb("destination").$type<PayoutDestination>(),
    createdAt: timestamp("created_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("payouts_seq_key").on(t.seq),
    index("payouts_isv_seq_idx").on(t.isvAccountId, t.seq),
    index("payouts_merchant_idx").on(t.merchantId, t.seq),
    // One first payout per settlement and per residual, and one replacement per failed payout: a
    // second run adds none.
    uniqueIndex("payouts_settlement_first_key")
      .on(t.settlementId)
      .where(sql`${t.replaces} is null`),
    uniqueIndex("payouts_residual_first_key")
      .on(t.residualId)
      .where(sql`${t.replaces} is null`),
    uniqueIndex("payouts_replaces_key").on(t.replaces),
    check("payouts_amount_positive", sql`${t.amount} > 0`),
    // An instant payout has its rail and fee; a standard one neither.
    check(
      "payouts_instant",
      sql`(${t.method} = 'instant') = (${t.rail} is not null) and (${t.method} = 'instant') = (${t.fee} is not null)
        and coalesce(${t.feeMarkup} between 0 and ${t.fee}, ${t.fee} is null)`,
    ),
    check(
      "payouts_card",
      sql`(coalesce(${t.rail}, '') = 'push_to_card') = (${t.payoutCardId} is not null)
        and (${t.payoutCardId} is null) = (${t.cardLast4} is null) and (${t.payoutCardId} is null) = (${t.cardBrand} is null)`,
    ),
    check("payouts_held_reason", sql`(${t.status} = 'held') = (${t.heldReason} is not null)`),
    check("payouts_failure_code", sql`(${t.status} = 'failed') = (${t.failureCode} is not null)`),
    // A merchant's payout names its merchant (and the settlement that made it, when one did); the
    // ISV's names its residual, and is never held.
    check(
      "payouts_recipient",
      sql`case when ${t.recipient} = 'merchant' then ${t.merchantId} is not null and ${t.residualId} is null
        else ${t.merchantId} is null and ${t.settlementId} is null and ${t.residualId} is not null and ${t.status} <> 'held' end`,
    ),
  ],
);

export type PayoutRow = typeof payouts.$inferSelect;
/** A merchant's payout (recipient `merchant`). */
export type MerchantPayoutRow = PayoutRow & { recipient: "merchant"; merchantId: string };
/** The ISV's own payout (recipient `account`): a residual paid to its bank account. */
export type AccountPayoutRow = PayoutRow & { recipient: "account"; merchantId: null; residualId: string };
