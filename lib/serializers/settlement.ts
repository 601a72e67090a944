import type { SettlementRow } from "../db/schema";

/** A settlement as the API returns it (docs/reference.md section 13; times in milliseconds, like charges). */
export function serializeSettlement(row: SettlementRow) {
  return {
    object: "settlement" as const,
    id: row.id,
    merchant_id: row.merchantId,
    currency: "usd" as const,
    charge_count: row.chargeCount,
    refund_count: row.refundCount,
    gross: row.gross,
    refunds: row.refunds,
    return_count: row.returnCount,
    returns: row.returns,
    reversal_count: row.reversalCount,
    reversals: row.reversals,
    fees: row.fees,
    dispute_count: row.disputeCount,
    disputes: row.disputes,
    dispute_fees: row.disputeFees,
    dispute_won_count: row.disputeWonCount,
    disputes_won: row.disputesWon,
    platform_fees: row.platformFees,
    carried_in: row.carriedIn,
    net: row.net,
    payout_status: row.payoutStatus,
    cutoff: row.cutoff.getTime(),
    created_at: row.createdAt.getTime(),
  };
}
export type SettlementJson = ReturnType<typeof serializeSettlement>;
