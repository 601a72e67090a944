import type { RefundRow } from "../db/schema";
import { type RefundJson } from "../schemas/refunds";

/** The refund as the API returns it (docs/reference.md section 10; `created_at` in milliseconds, like the charge). */
export function serializeRefund(row: RefundRow): RefundJson {
  return {
    object: "refund",
    id: row.id,
    charge_id: row.chargeId,
    merchant_id: row.merchantId,
    amount: row.amount,
    currency: "usd",
    reason: row.reason,
    status: row.status,
    failure_reason: row.failureReason,
    platform_fee_refund: row.platformFeeRefund,
    created_at: row.createdAt.getTime(),
  };
}

/** The short form inside a charge's `refunds` (the reference's fields). */
export const chargeRefund = (row: RefundRow) => ({
  id: row.id,
  charge_id: row.chargeId,
  merchant_id: row.merchantId,
  amount: row.amount,
  created_at: row.createdAt.getTime(),
});
