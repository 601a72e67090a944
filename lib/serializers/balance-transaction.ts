import type { LedgerPostingRow } from "../db/schema";
import type { BalanceTransactionType } from "../schemas/ledger-values";

/** A ledger posting as the merchant's balance transaction (docs/reference.md section 18; times in milliseconds). */
export function serializeBalanceTransaction(row: LedgerPostingRow) {
  return {
    object: "balance_transaction" as const,
    id: row.id,
    merchant_id: row.merchantId ?? "",
    type: row.type as BalanceTransactionType,
    source: row.sourceId,
    amount: row.amount,
    fee: row.fee,
    net: row.net,
    currency: "usd" as const,
    // Through `pending` until a settlement takes it; a move of `available` itself (a payout, a
    // reserve's hold or release) is available as it is written.
    status: row.settlementId || !row.movesPending ? ("available" as const) : ("pending" as const),
    available_on: row.availableOn,
    settlement_id: row.settlementId,
    payout_id: row.payoutId,
    description: row.description,
    created_at: row.createdAt.getTime(),
  };
}
export type BalanceTransactionJson = ReturnType<typeof serializeBalanceTransaction>;

export function serializeBalance(
  merchantId: string,
  balance: { available: number; pending: number; reserved: number },
) {
  return { object: "balance" as const, merchant_id: merchantId, ...balance, currency: "usd" as const };
}
export type BalanceJson = ReturnType<typeof serializeBalance>;
