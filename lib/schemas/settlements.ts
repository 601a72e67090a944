import { z } from "zod";

import { settlementPayoutStatuses } from "./payouts";

// Settlements: one merchant's day.

export const settlementSchema = z
  .object({
    object: z.literal("settlement"),
    id: z.string(),
    merchant_id: z.string(),
    currency: z.literal("usd"),
    charge_count: z.number().int(),
    refund_count: z.number().int(),
    gross: z.number().int().meta({ description: "Sum of its charges' amount_captured" }),
    refunds: z.number().int().meta({ description: "Sum of the refunds created since the last settlement" }),
    return_count: z
      .number()
      .int()
      .meta({ description: "ACH charges returned since the last settlement (an addition)" }),
    returns: z.number().int().meta({ description: "Sum of their amount_captured, taken back" }),
    reversal_count: z
      .number()
      .int()
      .meta({ description: "Returns taken back earlier that the banks reversed since the last settlement" }),
    reversals: z.number().int().meta({ description: "Sum of their amounts, paid back" }),
    fees: z.number().int().meta({ description: "Sum of its charges' fee" }),
    dispute_count: z.number().int().meta({ description: "Disputes opened since the last settlement" }),
    disputes: z.number().int().meta({ description: "Sum of their amounts, taken" }),
    dispute_fees: z.number().int().meta({ description: "Sum of their dispute fees, taken" }),
    dispute_won_count: z
      .number()
      .int()
      .meta({ description: "Disputes won since the last settlement (their amounts were taken before)" }),
    disputes_won: z.number().int().meta({ description: "Sum of their amounts, returned (not their fees)" }),
    platform_fees: z.number().int().meta({
      description:
        "The ISV's platform fees of its charges less what its refunds gave back of them (the guide: /docs/guide#section-19)",
    }),
    carried_in: z.number().int().meta({
      description: "The previous settlement's net when it was negative (<= 0), taken from this one",
    }),
    net: z.number().int().meta({
      description:
        "gross - refunds - returns + reversals - fees - disputes - dispute_fees + disputes_won - platform_fees + carried_in; > 0: paid out (a payout)",
    }),
    payout_status: z.enum(settlementPayoutStatuses).meta({
      description:
        "What its payout is doing: `scheduled` (pending or on its way; also a settlement with no payout), `held` when it waits (automatic_payouts false, the bank account being verified, a payout failed), `paid`, or `failed` (until its replacement is made)",
    }),
    cutoff: z
      .number()
      .int()
      .meta({ description: "Charges and refunds made before this instant (milliseconds) are in it" }),
    created_at: z.number().int().meta({ description: "Milliseconds since the epoch" }),
  })
  .meta({ id: "Settlement" });
