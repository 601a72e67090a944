import { inArray } from "drizzle-orm";

import { charges, disputes, refunds } from "../../db/schema";
import { type DbOrTx } from "../../db/types";
import { merchantPostingsBetween } from "../../ledger/reads";
import { type PostingType } from "../../schemas/ledger-values";
import { type MonthActivity, periodRange, statementPostingTypes } from "./figures";

/**
 * A merchant's month as the ledger wrote it (./figures.ts `MonthActivity`): its activity postings
 * of the period and the charges, refunds and disputes they come from; null when it has none.
 */
export async function readMonth(db: DbOrTx, merchantId: string, period: string): Promise<MonthActivity | null> {
  const { start, end } = periodRange(period);
  const postings = await merchantPostingsBetween(db, merchantId, statementPostingTypes, start, end);
  if (postings.length === 0) return null;
  const idsOf = (...types: PostingType[]) => [
    ...new Set(postings.filter((p) => types.includes(p.type)).map((p) => p.sourceId)),
  ];
  const chargeIds = idsOf("charge", "ach_return", "ach_return_reversal");
  const refundIds = idsOf("refund");
  const disputeIds = idsOf("dispute", "dispute_fee", "dispute_won");
  const [chargeRows, refundRows, disputeRows] = await Promise.all([
    chargeIds.length ? db.select().from(charges).where(inArray(charges.id, chargeIds)) : [],
    refundIds.length ? db.select().from(refunds).where(inArray(refunds.id, refundIds)) : [],
    disputeIds.length ? db.select().from(disputes).where(inArray(disputes.id, disputeIds)) : [],
  ]);
  return {
    postings,
    charges: new Map(chargeRows.map((c) => [c.id, c])),
    refunds: new Map(refundRows.map((r) => [r.id, r])),
    disputes: new Map(disputeRows.map((d) => [d.id, d])),
  };
}
