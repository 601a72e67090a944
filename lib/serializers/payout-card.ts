import type { PayoutCardRow } from "../db/schema";
import { isoDay } from "../payouts/business-days";

/** A merchant's debit card for instant payouts (docs/reference.md section 20): never its number. */
export function serializePayoutCard(row: PayoutCardRow) {
  return {
    object: "payout_card" as const,
    id: row.id,
    merchant_id: row.merchantId,
    brand: row.brand,
    last4: row.last4,
    exp_month: row.expMonth,
    exp_year: row.expYear,
    funding: "debit" as const,
    usable_from: isoDay(row.usableFrom),
    status: row.removedAt ? ("removed" as const) : ("active" as const),
    created_at: row.createdAt.getTime(),
  };
}
export type PayoutCardJson = ReturnType<typeof serializePayoutCard>;
