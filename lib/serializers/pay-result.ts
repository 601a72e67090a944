import type { z } from "zod";

import type { ChargeRow, PaymentRequestRow } from "../db/schema";
import { type payResultSchema } from "../schemas/payment-requests";
import { serializePaymentRequest } from "./payment-request";

export type PayResultJson = z.infer<typeof payResultSchema>;

/**
 * The decline reason an anonymous payer is told (docs/reference.md section 10, card testing): the
 * ones that help an honest customer fix the attempt, and `card_declined` for every other, so a card
 * tester learns nothing about the card (lost, stolen, funds). The charge keeps the precise reason.
 */
export function publicFailureReason(reason: string | null): string | null {
  if (reason === null) return null;
  return (publicReasons as readonly string[]).includes(reason) ? reason : "card_declined";
}
const publicReasons = ["incorrect_cvc", "expired_card", "debit_not_allowed", "processing_error"] as const;

/** What POST /v1/payment_requests/{id}/pay answers: the attempt's outcome, the request after it (without the customer's contact), and the charge in short (never its card number). */
export function serializePayResult(result: {
  outcome: PayResultJson["outcome"];
  request: PaymentRequestRow;
  charge: ChargeRow;
  base: string;
}): PayResultJson {
  const {
    email_address: _email,
    phone_number: _phone,
    platform_fee: _platformFee,
    customer: _customer,
    subscription: _subscription,
    ...request
  } = serializePaymentRequest(result.request, result.base);
  return {
    object: "payment_result",
    outcome: result.outcome,
    payment_request: request,
    charge: {
      id: result.charge.id,
      status: result.charge.status,
      amount: result.charge.requestedAmount,
      card_brand: result.charge.cardBrand,
      card_last_4: result.charge.cardLast4,
      failure_reason: publicFailureReason(result.charge.failureReason),
      receipt_number: result.charge.receiptNumber,
      created_at: result.charge.createdAt.getTime(),
    },
  };
}
