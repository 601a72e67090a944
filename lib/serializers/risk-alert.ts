import type { RiskAlertRow } from "../db/schema";

/** A risk alert as the API returns it (docs/reference.md section 20; times in milliseconds). */
export function serializeRiskAlert(row: RiskAlertRow) {
  return {
    object: "risk_alert" as const,
    id: row.id,
    merchant_id: row.merchantId,
    rule: row.rule,
    figures: row.figures,
    action: row.action,
    status: row.status,
    reserve_id: row.reserveId,
    created_at: row.createdAt.getTime(),
    resolved_at: row.resolvedAt?.getTime() ?? null,
    resolved_by: row.resolvedBy,
  };
}
export type RiskAlertJson = ReturnType<typeof serializeRiskAlert>;
