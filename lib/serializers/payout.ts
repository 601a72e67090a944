import type { AccountPayoutRow, PayoutRow } from "../db/schema";

/** A payout as the API returns it (docs/reference.md section 16; times in milliseconds, like settlements). */
export function serializePayout(row: PayoutRow) {
  return {
    object: "payout" as const,
    id: row.id,
    recipient: "merchant" as const,
    merchant_id: row.merchantId as string | null,
    settlement_id: row.settlementId as string | null,
    residual_id: null as string | null,
    replaces: row.replaces,
    amount: row.amount,
    currency: "usd" as const,
    status: row.status,
    held_reason: row.heldReason,
    failure_code: row.failureCode,
    arrival_date: row.arrivalDate,
    bank_account: row.bankLast4 ? { last4: row.bankLast4, bank_name: row.bankName } : null,
    created_at: row.createdAt.getTime(),
  };
}
export type PayoutJson = ReturnType<typeof serializePayout>;

/** A payout to an ISV's own bank account (its residual, docs/reference.md section 19), in the same shape. */
export function serializeAccountPayout(
  row: AccountPayoutRow,
): Omit<PayoutJson, "recipient"> & { recipient: "account" } {
  return {
    object: "payout",
    id: row.id,
    recipient: "account",
    merchant_id: null,
    settlement_id: null,
    residual_id: row.residualId,
    replaces: row.replaces,
    amount: row.amount,
    currency: "usd",
    status: row.status,
    held_reason: null,
    failure_code: row.failureCode,
    arrival_date: row.arrivalDate,
    bank_account: row.bankLast4 ? { last4: row.bankLast4, bank_name: row.bankName } : null,
    created_at: row.createdAt.getTime(),
  };
}
