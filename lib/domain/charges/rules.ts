import type { ChargeRow } from "../../db/schema";
import type { ChargeStatus } from "../../schemas/payment-values";

// The charge's rules without a database (docs/reference.md section 13): its moves, what can be
// refunded and what a return takes back. ./status.ts applies them as conditional updates and 409s;
// the unit tests beside this file (and the mutation run) hold them.
//
//   (authorized) --> AUTHORIZED --settle--> SETTLED --returnCharge--> RETURNED
//   (declined)   --> FAILED                 SETTLED <--reverseReturn-- RETURNED
// FAILED is final: nothing was captured, so nothing settles, returns or refunds.

export const chargeMoves = {
  settle: { from: ["AUTHORIZED"], to: "SETTLED" },
  returnCharge: { from: ["SETTLED"], to: "RETURNED" },
  reverseReturn: { from: ["RETURNED"], to: "SETTLED" },
} as const satisfies Record<string, { from: readonly ChargeStatus[]; to: ChargeStatus }>;
export type ChargeMove = keyof typeof chargeMoves;

/** The status a new charge is written with: what the processor's authorization said. */
export const newChargeStatus = (approved: boolean): ChargeStatus => (approved ? "AUTHORIZED" : "FAILED");

// Refunds: nothing of a FAILED charge (nothing was captured) or a RETURNED one (the bank sent the
// money back), nothing of a disputed one (the dispute takes what the customer still paid: a refund
// on top would pay the customer twice), and nothing of an ACH charge before it cleared: a debit refunded and then returned
// by the customer's bank would pay the customer twice, so an ACH refund waits until the return
// check of its settlement found no return (`ach_cleared_at`).
export const notRefundableStatuses = ["FAILED", "RETURNED"] as const satisfies readonly ChargeStatus[];
const whyNotRefundable: Record<(typeof notRefundableStatuses)[number], string> = {
  FAILED: "nothing was captured, so there is nothing to refund",
  RETURNED: "the customer's bank already sent the money back",
};
type RefundFacts = Pick<
  ChargeRow,
  "status" | "amountCaptured" | "amountRefunded" | "paymentMethod" | "achClearedAt" | "disputeId"
>;

/** An ACH charge its bank could still return (not yet cleared): not refundable yet. */
export const awaitsAchClearing = (charge: Pick<ChargeRow, "paymentMethod" | "achClearedAt" | "status">) =>
  charge.paymentMethod === "ach" &&
  charge.achClearedAt === null &&
  charge.status !== "RETURNED" &&
  charge.status !== "FAILED";

/** What of a charge can still be refunded, in cents. */
export function refundableAmount(charge: RefundFacts): number {
  if ((notRefundableStatuses as readonly ChargeStatus[]).includes(charge.status)) return 0;
  if (awaitsAchClearing(charge)) return 0;
  if (charge.disputeId) return 0;
  return Math.max(0, charge.amountCaptured - charge.amountRefunded);
}

/** Why the charge's state admits no refund (the 409's message), or null when it does. */
export function whyNotRefundableNow(
  charge: Pick<ChargeRow, "id" | "status" | "paymentMethod" | "achClearedAt" | "disputeId">,
) {
  const why = whyNotRefundable[charge.status as keyof typeof whyNotRefundable];
  if (why) return `Charge ${charge.id} is ${charge.status}: ${why}`;
  if (charge.disputeId)
    return `Charge ${charge.id} is disputed (${charge.disputeId}): the dispute decides what goes back to the customer, so it cannot be refunded`;
  if (awaitsAchClearing(charge))
    return `Charge ${charge.id} is a bank payment (ACH) that has not cleared: its bank can still return it, so it can be refunded once it clears (after its settlement's return check)`;
  return null;
}

/** An amount still held of a charge: what was captured less what was refunded (a return takes back this much). */
export const heldAmount = (charge: Pick<ChargeRow, "amountCaptured" | "amountRefunded">) =>
  charge.amountCaptured - charge.amountRefunded;
