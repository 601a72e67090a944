import { eq, isNotNull, isNull, lt } from "drizzle-orm";

import { allOf } from "../../db/conditions";
import { disputes } from "../../db/schema";

/**
 * What a settlement with `cutoff` takes of disputes (beside ../charges/status.ts settleablePredicates):
 * the disputes opened before the cutoff that no settlement took yet (amount and fee), and the won
 * disputes, already taken, whose amount no settlement returned yet.
 */
export function disputeSettlementPredicates(cutoff: Date) {
  return {
    opened: allOf(isNull(disputes.settlementId), lt(disputes.createdAt, cutoff)),
    won: allOf(
      eq(disputes.status, "won"),
      isNotNull(disputes.settlementId),
      isNull(disputes.wonSettlementId),
      lt(disputes.closedAt, cutoff),
    ),
  };
}
