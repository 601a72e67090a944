import { eq } from "drizzle-orm";

import { type AccountPayoutRow, type MerchantPayoutRow, type PayoutRow, payouts } from "../../db/schema";

// One payouts table for both recipients (docs/reference.md sections 16 and 19): the merchant's side
// and the ISV's own read a row as theirs only after asking whose it is.

export const isMerchantPayout = (row: PayoutRow): row is MerchantPayoutRow =>
  row.recipient === "merchant" && row.merchantId !== null;

export const isAccountPayout = (row: PayoutRow): row is AccountPayoutRow =>
  row.recipient === "account" && row.merchantId === null && row.residualId !== null;

/** The row as a merchant's payout (a row the caller selected as one; anything else is a bug, thrown). */
export function merchantPayout(row: PayoutRow): MerchantPayoutRow {
  if (!isMerchantPayout(row)) throw new Error(`Payout ${row.id} is not a merchant's`);
  return row;
}

/** The row as the ISV's own payout (as merchantPayout). */
export function accountPayout(row: PayoutRow): AccountPayoutRow {
  if (!isAccountPayout(row)) throw new Error(`Payout ${row.id} is not an ISV's own`);
  return row;
}

/** The merchants' payouts (a filter: the ISV's own are in the same table). */
export const ofMerchants = eq(payouts.recipient, "merchant");
