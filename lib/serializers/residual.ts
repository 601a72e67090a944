import type { ResidualLineRow, ResidualRow } from "../db/schema";
import type { ResidualJson, ResidualLineJson } from "../schemas/residuals";

/** A residual as the API returns it (docs/reference.md section 19; times in milliseconds). */
export function serializeResidual(row: ResidualRow): ResidualJson {
  return {
    object: "residual",
    id: row.id,
    period: row.period,
    volume: row.volume,
    count: row.count,
    merchant_fees: row.merchantFees,
    costs: row.costs,
    margin: row.margin,
    share: row.share,
    platform_fees: row.platformFees,
    revenue_share_percent: row.revenueSharePercent,
    adjustments: row.adjustments,
    carried_in: row.carriedIn,
    amount: row.amount,
    status: row.status,
    payout_id: row.payoutId,
    line_count: row.lineCount,
    created_at: row.createdAt.getTime(),
  };
}

export function serializeResidualLine(row: ResidualLineRow): ResidualLineJson {
  return {
    object: "residual_line",
    residual_id: row.residualId,
    merchant_id: row.merchantId,
    volume: row.volume,
    count: row.count,
    merchant_fees: row.merchantFees,
    costs: row.costs,
    margin: row.margin,
    share: row.share,
    platform_fees: row.platformFees,
    amount: row.amount,
  };
}
