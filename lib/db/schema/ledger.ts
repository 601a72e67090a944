import { sql } from "drizzle-orm";
import {
  bigint,
  bigserial,
  boolean,
  check,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
} from "drizzle-orm/pg-core";

import { ledgerAccountNames, postingTypes } from "../../schemas/ledger-values";

/**
 * The ledger (docs/reference.md section 18): one posting per movement of money, its entries summing
 * to zero. A posting's header is what the public `balance_transaction` shows: its type, its source
 * (`ch_`, `re_`, `dp_`, `po_`), its signed amount, fee and net for the merchant. What it moved
 * (`amount`, `fee`, `net`, `type`, `source_id`, `merchant_id`) never changes; the settlement and payout
 * that took it are written once, later. Entries are never updated or deleted (a trigger refuses it,
 * migration 0029), and an INSERT whose entries do not sum to zero per posting is refused.
 */
export const ledgerPostings = pgTable(
  "ledger_postings",
  {
    id: text("id").primaryKey(),
    seq: bigserial("seq", { mode: "number" }).notNull(),
    isvAccountId: text("isv_account_id").notNull(),
    /** The merchant whose balance it moves (null: the platform's own, e.g. a payout reaching the bank). */
    merchantId: text("merchant_id"),
    type: text("type", { enum: postingTypes }).notNull(),
    sourceId: text("source_id").notNull(),
    amount: integer("amount").notNull(),
    fee: integer("fee").notNull().default(0),
    net: integer("net").notNull(),
    currency: text("currency").notNull().default("usd"),
    description: text("description").notNull(),
    /** YYYY-MM-DD: the business day its funds are due to be paid out. */
    availableOn: text("available_on").notNull(),
    /**
     * Whether it moves its merchant's `pending` money (an entry there): a settlement takes every such
     * posting no settlement took yet, whatever its type (docs/reference.md section 13).
     */
    movesPending: boolean("moves_pending").notNull().default(false),
    /** The settlement that took it (its pending funds became available), once. */
    settlementId: text("settlement_id"),
    /** The payout that paid it out (or, for a `payout` posting, the payout itself). */
    payoutId: text("payout_id"),
    createdAt: timestamp("created_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("ledger_postings_seq_key").on(t.seq),
    index("ledger_postings_merchant_seq_idx").on(t.merchantId, t.seq),
    // A merchant's period (a statement's month, the home's today and this month).
    index("ledger_postings_merchant_created_idx").on(t.merchantId, t.createdAt),
    index("ledger_postings_isv_seq_idx").on(t.isvAccountId, t.seq),
    // An ISV's days (the dashboard overview's volume and refunds).
    index("ledger_postings_isv_created_idx").on(t.isvAccountId, t.createdAt),
    index("ledger_postings_source_idx").on(t.sourceId),
    index("ledger_postings_settlement_idx").on(t.settlementId),
    index("ledger_postings_payout_idx").on(t.payoutId),
    // What the merchant's next settlement takes: its untaken postings through `pending`, by time.
    index("ledger_postings_untaken_idx")
      .on(t.merchantId, t.createdAt)
      .where(sql`${t.settlementId} is null and ${t.movesPending}`),
    // What the next automatic payout of a merchant takes (lib/ledger/payout-draws.ts unpaidLines;
    // a reserve's holds and releases, never settled, are lines of the payout after them):
    // the payout run looks only at the merchants with some.
    index("ledger_postings_unpaid_idx")
      .on(t.merchantId)
      .where(
        sql`${t.payoutId} is null and ((${t.settlementId} is not null and ${t.type} not in ('payout_failure', 'payout', 'settlement', 'funding', 'payout_paid')) or ${t.type} in ('payout', 'reserve_hold', 'reserve_release', 'instant_payout_fee'))`,
      ),
    check("ledger_postings_net", sql`${t.net} = ${t.amount} - ${t.fee}`),
  ],
);

/**
 * One side of a posting: `amount` cents (signed) to one ledger account, owned by a merchant
 * (`pending`, `available`, `reserved`), an ISV (`revenue`) or the platform (owner null: the clearing
 * accounts, `processing_revenue`, `platform_cash`).
 */
export const ledgerEntries = pgTable(
  "ledger_entries",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    postingId: text("posting_id")
      .notNull()
      .references(() => ledgerPostings.id),
    account: text("account", { enum: ledgerAccountNames }).notNull(),
    ownerId: text("owner_id"),
    amount: bigint("amount", { mode: "number" }).notNull(),
    createdAt: timestamp("created_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
  },
  (t) => [
    index("ledger_entries_posting_idx").on(t.postingId),
    // A balance is its checkpoint plus the sum of one owner's account's later entries: answered from the index alone.
    index("ledger_entries_owner_account_idx").on(t.ownerId, t.account, t.id, t.amount),
  ],
);

/**
 * What a merchant's account held through one entry (`through_entry_id`): a balance is this amount
 * plus the account's later entries, so reading it never sums a merchant's whole history. Written by
 * the daily ledger check (../../domain/ledger/run-ledger-check.ts) through entries old enough that no
 * transaction still writing can hold a lower id; checked against the entries by the same job.
 */
export const ledgerBalanceCheckpoints = pgTable(
  "ledger_balance_checkpoints",
  {
    ownerId: text("owner_id").notNull(),
    account: text("account", { enum: ledgerAccountNames }).notNull(),
    throughEntryId: bigint("through_entry_id", { mode: "number" }).notNull(),
    amount: bigint("amount", { mode: "number" }).notNull(),
    updatedAt: timestamp("updated_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.ownerId, t.account] })],
);

export type LedgerPostingRow = typeof ledgerPostings.$inferSelect;
export type LedgerEntryRow = typeof ledgerEntries.$inferSelect;
