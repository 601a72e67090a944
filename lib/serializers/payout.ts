import type { PayoutRow } from "../db/schema";

/**
 * A payout as the API returns it, to either recipient (docs/reference.md sections 16 and 19; times
 * in milliseconds, like settlements): a merchant's names its merchant and settlement, the ISV's own
 * its residual.
 */
export function serializePayout(row: PayoutRow) {
  return {
    object: "payout" as const,
    id: row.id,
    recipient: row.recipient,
    merchant_id: row.merchantId,
    settlement_id: row.settlementId,
    residual_id: row.residualId,
    replaces: row.replaces,
    automatic: row.automatic,
    method: row.method,
    fee: row.fee,
    rail: row.rail,
    card:
      row.payoutCardId && row.cardBrand && row.cardLast4
        ? { id: row.payoutCardId, brand: row.cardBrand, last4: row.cardLast4 }
        : null,
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
