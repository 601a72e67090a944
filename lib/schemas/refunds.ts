import { z } from "zod";

import { MAX_TOTAL } from "./money-fields";
import { refundReasons, refundStatuses } from "./payment-values";

// Refunds: the body that asks for one, the resource and its list filters.

export const createRefundSchema = z
  .strictObject({
    charge_id: z.string().min(1).max(64).meta({ example: "ch_8nW3kQ5zX1mP7vL2rT6yBd" }),
    amount: z
      .number()
      .int("must be a whole number of cents")
      .min(1, "must be at least 1 cent")
      .max(MAX_TOTAL)
      .optional()
      .meta({ description: "Cents; default: what is left to refund." }),
    reason: z.enum(refundReasons).optional(),
  })
  .meta({ id: "CreateRefundRequest" });

export const refundSchema = z
  .object({
    object: z.literal("refund"),
    id: z.string(),
    charge_id: z.string(),
    merchant_id: z.string(),
    amount: z.number().int(),
    currency: z.literal("usd"),
    reason: z.enum(refundReasons).nullable(),
    status: z.enum(refundStatuses).meta({
      description:
        "`succeeded`; `pending` while the processor has not answered (a timeout: the platform asks it again and sends `refund.created` or `refund.failed`); `failed` when it declined a pending refund (the amount is given back to the charge's `amount_refunded`)",
    }),
    failure_reason: z
      .string()
      .nullable()
      .meta({ description: "Why the processor declined it (a `failed` refund); else null" }),
    platform_fee_refund: z.number().int().meta({
      description:
        "Cents of the charge's platform fee this refund gave back to the merchant (the guide: /docs/guide#section-19): its share pro rata, or 0 when the ISV keeps it (`settings.platform_fee_refund`)",
    }),
    created_at: z.number().int().meta({ description: "Milliseconds since the epoch" }),
  })
  .meta({ id: "Refund" });
export type RefundJson = z.infer<typeof refundSchema>;

export const refundListQuery = z.object({
  charge_id: z.string().max(64).optional(),
  merchant_id: z.string().max(64).optional(),
});
