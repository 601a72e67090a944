import { z } from "zod";

import { disputeReasons, disputeStatuses } from "./disputes";
import { payoutFailureCodes, payoutStatuses } from "./payouts";

// Monthly statements: the list form and the detail with its lines.

export const statementSchema = z
  .object({
    object: z.literal("statement"),
    id: z.string(),
    merchant_id: z.string(),
    period: z.string().meta({ description: "YYYY-MM" }),
    currency: z.literal("usd"),
    charge_count: z.number().int(),
    refund_count: z.number().int(),
    gross_volume: z
      .number()
      .int()
      .meta({ description: "Sum of amount_captured of the charges captured in the period" }),
    refunds: z.number().int().meta({ description: "Sum of the refunds created in the period" }),
    return_count: z.number().int().meta({ description: "ACH charges returned in the period (an addition)" }),
    returns: z.number().int().meta({ description: "Sum of their amounts" }),
    reversal_count: z.number().int().meta({ description: "ACH returns the banks reversed in the period" }),
    reversals: z.number().int().meta({ description: "Sum of their amounts" }),
    fees: z.number().int().meta({
      description:
        "Processing fees of its charges, the ACH activity fees (returns, daily batches) and the monthly fees",
    }),
    platform_fees: z.number().int().meta({
      description:
        "The ISV's platform fees of the period's charges, less what the period's refunds gave back of them (the guide: /docs/guide#section-19); the statement names it \"<ISV> fee\"",
    }),
    net: z.number().int().meta({
      description:
        "gross_volume - refunds - returns + reversals - fees - platform_fees - the amounts of the disputes opened in the period + the amounts of the disputes won in it (see `disputes` in the detail; dispute fees are a fee line)",
    }),
    final: z.boolean().meta({
      description:
        "true once made after its month ended (a snapshot, never changed). A statement of the unfinished month (sandbox) is a preview: generating it again makes it again with the month's later activity, same id, until the month ends",
    }),
    created_at: z.string().meta({ description: "When these figures were made" }),
  })
  .meta({ id: "Statement" });

export const statementDetailSchema = statementSchema
  .extend({
    fee_lines: z.array(
      z.object({
        kind: z.enum(["processing", "monthly", "ach_activity", "dispute"]),
        model: z.string(),
        description: z.string(),
        count: z.number().int(),
        amount: z.number().int(),
      }),
    ),
    card_brands: z.array(z.object({ brand: z.string(), count: z.number().int(), volume: z.number().int() })),
    daily_totals: z.array(
      z.object({
        date: z.string(),
        charges: z.number().int(),
        volume: z.number().int(),
        refunds: z.number().int().meta({ description: "Refunds made that day" }),
        returns: z
          .number()
          .int()
          .meta({ description: "ACH returns taken that day, less the returns the banks reversed that day" }),
        fees: z.number().int(),
      }),
    ),
    payouts: z
      .array(
        z.object({
          id: z.string(),
          settlement_id: z.string().nullable(),
          created_at: z.string(),
          amount: z.number().int(),
          status: z.enum(payoutStatuses),
          arrival_date: z.string().nullable(),
          failure_code: z.enum(payoutFailureCodes).nullable(),
        }),
      )
      .meta({ description: "The payouts made in the month, as they stood when the statement was made" }),
    disputes: z
      .array(
        z.object({
          id: z.string(),
          charge_id: z.string(),
          created_at: z.string(),
          reason: z.enum(disputeReasons),
          status: z.enum(disputeStatuses),
          amount: z.number().int(),
          fee: z.number().int(),
          closed_at: z.string().nullable().optional().meta({ description: "When it was won or lost" }),
          opened_in_period: z.boolean().meta({ description: "Its amount and fee were taken in the period" }),
          won_in_period: z.boolean().meta({ description: "It was won in the period: its amount came back" }),
        }),
      )
      .meta({ description: "The disputes opened or won in the period, as they stood when the statement was made" }),
  })
  .meta({ id: "StatementDetail" });
