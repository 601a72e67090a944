// The ledger's words (docs/reference.md section 18), shared by the database schema, the API and lib/ledger.

/** A merchant's accounts: what is on its way (`pending`), what may be paid out, what is held back. */
export const merchantAccounts = ["pending", "available", "reserved"] as const;
/** The platform's own accounts; the clearing ones drain to zero once the money they wait for arrives. */
export const platformAccounts = [
  "card_clearing",
  "ach_clearing",
  "dispute_clearing",
  "payout_clearing",
  "processing_revenue",
  "platform_cash",
  "processing_costs",
] as const;
export const ledgerAccountNames = [...merchantAccounts, "revenue", ...platformAccounts] as const;
export type LedgerAccountName = (typeof ledgerAccountNames)[number];

/** The types a merchant sees as `balance_transaction`s (the contract's list). */
export const balanceTransactionTypes = [
  "charge",
  "refund",
  "ach_return",
  "ach_return_reversal",
  "dispute",
  "dispute_fee",
  "dispute_won",
  "platform_fee",
  "platform_fee_refund",
  "monthly_fee",
  "reserve_hold",
  "reserve_release",
  "payout",
  "payout_failure",
  "instant_payout_fee",
  "residual",
  "adjustment",
] as const;
export type BalanceTransactionType = (typeof balanceTransactionTypes)[number];

/**
 * The merchant's activity: what a statement adds up for its month and a settlement takes as its
 * lines (with the month-end fees); net volume counts the first four (lib/ledger/volume.ts).
 */
export const activityPostingTypes = [
  "charge",
  "refund",
  "ach_return",
  "ach_return_reversal",
  "dispute",
  "dispute_fee",
  "dispute_won",
  "platform_fee",
  "platform_fee_refund",
] as const satisfies readonly BalanceTransactionType[];

/**
 * Postings the platform makes between its own accounts or a merchant's own two, never shown as a
 * balance transaction: a settlement (pending → available), the processor's funding of a settlement
 * (the clearing accounts drained), a payout reaching the bank (payout clearing → cash), and what a
 * payment, a dispute or a bank's return cost the platform (its revenue → `processing_costs`,
 * docs/reference.md section 19).
 */
export const internalPostingTypes = ["settlement", "funding", "payout_paid", "cost"] as const;
export const postingTypes = [...balanceTransactionTypes, ...internalPostingTypes] as const;
export type PostingType = (typeof postingTypes)[number];

export const balanceTransactionStatuses = ["pending", "available"] as const;

/** Reports made from the ledger (docs/reference.md section 18). */
export const reportTypes = ["balance_transactions", "payout_reconciliation", "residual_lines"] as const;
export type ReportType = (typeof reportTypes)[number];
export const reportStatuses = ["pending", "succeeded", "failed"] as const;
