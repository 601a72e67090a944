import type { ChargeRow } from "../../db/schema";

/**
 * What of a charge can still be refunded, in cents: nothing of a FAILED charge (nothing was
 * captured) or a RETURNED one (the bank sent the money back). `createRefund` enforces the same rule
 * in its conditional update; pages use this to offer the refund button.
 */
export function refundableAmount(charge: Pick<ChargeRow, "status" | "amountCaptured" | "amountRefunded">): number {
  if (charge.status === "FAILED" || charge.status === "RETURNED") return 0;
  return Math.max(0, charge.amountCaptured - charge.amountRefunded);
}
