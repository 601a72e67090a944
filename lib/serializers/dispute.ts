import type { DisputeRow } from "../db/schema";

/** A dispute's row with the settlements that took it, as the ledger says (lib/domain/disputes/status.ts reads it). */
export type DisputeView = DisputeRow & { settlementId: string | null; wonSettlementId: string | null };
import { emptyEvidence } from "../schemas/disputes";

const ms = (d: Date | null) => (d ? d.getTime() : null);

/** A dispute as the API returns it (docs/reference.md section 16; times in milliseconds, like charges). */
export function serializeDispute(row: DisputeView) {
  return {
    object: "dispute" as const,
    id: row.id,
    charge_id: row.chargeId,
    merchant_id: row.merchantId,
    amount: row.amount,
    fee: row.fee,
    currency: "usd" as const,
    reason: row.reason,
    status: row.status,
    evidence: { ...emptyEvidence(), ...row.evidence },
    evidence_due_by: row.evidenceDueBy.getTime(),
    submitted_at: ms(row.submittedAt),
    closed_at: ms(row.closedAt),
    settlement_id: row.settlementId,
    won_settlement_id: row.wonSettlementId,
    created_at: row.createdAt.getTime(),
  };
}
export type DisputeJson = ReturnType<typeof serializeDispute>;

/** The dispute as its ISV reads it (its key or JWT, its webhooks): with what it cost and the ISV's margin (docs/reference.md section 19). */
export const serializeDisputeForIsv = (row: DisputeView) => ({
  ...serializeDispute(row),
  costs: row.costs,
  margin: row.margin,
});

/** The ISV (no merchant in its scope) reads costs and margin; a merchant's own key or home does not. */
export const disputeSerializerFor = (scope: { merchantId?: string }) =>
  scope.merchantId === undefined ? serializeDisputeForIsv : serializeDispute;
