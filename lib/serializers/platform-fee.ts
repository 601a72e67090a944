import type { ChargeRow, LedgerPostingRow } from "../db/schema";
import { must } from "../must";

/**
 * A platform fee's webhook object (`platform_fee.created`, `platform_fee.refunded`, docs/reference.md
 * section 19): the balance transaction that moved it, its charge, and the charge's fee after it.
 */
export function serializePlatformFee(txn: LedgerPostingRow, charge: ChargeRow, refundId: string | null) {
  return {
    object: "platform_fee" as const,
    id: txn.id,
    charge_id: charge.id,
    refund_id: refundId,
    merchant_id: charge.merchantId,
    amount: Math.abs(txn.amount),
    charge_platform_fee: must(chargePlatformFee(charge), "the platform fee of a charge that has one"),
    created_at: txn.createdAt.getTime(),
  };
}

/** A charge's platform fee as the API shows it: what was taken and what refunds gave back; null: none. */
export const chargePlatformFee = (charge: Pick<ChargeRow, "platformFee" | "platformFeeRefunded">) =>
  charge.platformFee ? { amount: charge.platformFee, refunded: charge.platformFeeRefunded } : null;
