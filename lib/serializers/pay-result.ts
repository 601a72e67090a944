import type { z } from "zod";

import type { ChargeRow, PaymentRequestRow } from "../db/schema";
import { type payResultSchema } from "../schemas/payment-requests";
import { serializePaymentRequest } from "./payment-request";

export type PayResultJson = z.infer<typeof payResultSchema>;

/** What POST /v1/payment_requests/{id}/pay answers: the attempt's outcome, the request after it, and the charge in short (never its card number). */
export function serializePayResult(result: {
  outcome: PayResultJson["outcome"];
  request: PaymentRequestRow;
  charge: ChargeRow;
  base: string;
}): PayResultJson {
  return {
    object: "payment_result",
    outcome: result.outcome,
    payment_request: serializePaymentRequest(result.request, result.base),
    charge: {
      id: result.charge.id,
      status: result.charge.status,
      amount: result.charge.requestedAmount,
      card_brand: result.charge.cardBrand,
      card_last_4: result.charge.cardLast4,
      failure_reason: result.charge.failureReason,
      receipt_number: result.charge.receiptNumber,
      created_at: result.charge.createdAt.getTime(),
    },
  };
}
