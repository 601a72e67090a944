import type { StatementRow } from "../db/schema";

/** The statement in lists (docs/reference.md section 11). */
export function serializeStatement(row: StatementRow) {
  return {
    object: "statement" as const,
    id: row.id,
    merchant_id: row.merchantId,
    period: row.period,
    currency: "usd" as const,
    charge_count: row.chargeCount,
    refund_count: row.refundCount,
    gross_volume: row.grossVolume,
    refunds: row.refunds,
    return_count: row.returnCount,
    returns: row.returns,
    reversal_count: row.reversalCount,
    reversals: row.reversals,
    fees: row.fees,
    platform_fees: row.platformFees,
    net: row.net,
    final: row.final,
    created_at: row.createdAt.toISOString(),
  };
}

/** One statement with its lines: fee lines, card brands, daily totals. */
export function serializeStatementDetail(row: StatementRow) {
  return {
    ...serializeStatement(row),
    fee_lines: row.feeLines,
    card_brands: row.cardBrands,
    // Statements made before the returns column existed counted returns with refunds: 0 here.
    daily_totals: row.dailyTotals.map((d) => ({ ...d, returns: d.returns ?? 0 })),
    // The payouts made in the month, as they stood when the statement was made.
    payouts: row.payouts,
    // The disputes opened or won in the month, as they stood then.
    disputes: row.disputes,
  };
}
