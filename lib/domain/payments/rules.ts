import { clock } from "../../clock";
import type { PaymentRequestRow } from "../../db/schema";
import type { PaymentRequestStatus } from "../../schemas/payment-values";

// The payment request's rules without a database (docs/reference.md section 10): its moves and the
// status a reader sees. ./status.ts applies the moves as conditional updates.
//
//   PENDING --payRequest--> PAID      PENDING --cancelRequest--> CANCELED
//   PENDING --expireRequest--> EXPIRED (7 days; a TERMINAL request at its deadline)
// A declined card leaves the request PENDING, so the customer can try again.

export const paymentRequestMoves = {
  payRequest: { from: ["PENDING"], to: "PAID" },
  cancelRequest: { from: ["PENDING"], to: "CANCELED" },
  expireRequest: { from: ["PENDING"], to: "EXPIRED" },
} as const satisfies Record<string, { from: readonly PaymentRequestStatus[]; to: PaymentRequestStatus }>;
export type PaymentRequestMove = keyof typeof paymentRequestMoves;

export const isFinalRequest = (status: PaymentRequestStatus) => status !== "PENDING";

/** Past its deadline (./status.ts's `pastDeadline` is the same rule in SQL; the database's clock and this one agree to the second). */
export const isPastDeadline = (request: Pick<PaymentRequestRow, "expiresAt">, now = clock.ms()) =>
  request.expiresAt.getTime() <= now;

/** The status as a reader sees it: a PENDING request past its deadline is EXPIRED, even before the expiry job has run. */
export function effectiveStatus(
  request: Pick<PaymentRequestRow, "status" | "expiresAt">,
  now = clock.ms(),
): PaymentRequestStatus {
  return request.status === "PENDING" && isPastDeadline(request, now) ? "EXPIRED" : request.status;
}
