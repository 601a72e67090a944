import { z } from "zod";

import { cents } from "./money-fields";
import { paymentTypes } from "./payment-values";

// The ISV's own fee on a payment (docs/reference.md section 19): given on the payment's creation, or
// chosen by the account's rules; integer cents, and a percent with at most two decimals (read exactly,
// as a decimal string, never multiplied as a float).

/** A percent of the payment's total: 0 to 100, at most two decimals (2.5 = 250 basis points). */
export const feePercent = z
  .number()
  .min(0, "must be from 0 to 100")
  .max(100, "must be from 0 to 100")
  .refine((v) => /^\d{1,3}(\.\d{1,2})?$/.test(String(v)), "must have at most two decimals, e.g. 2.5");

const bounds = {
  min: cents("min").optional().meta({ description: "Cents: the fee is at least this (with `percent`)" }),
  max: cents("max").optional().meta({ description: "Cents: the fee is at most this (with `percent`)" }),
};
const minNotAboveMax = (v: { min?: number; max?: number }) =>
  v.min === undefined || v.max === undefined || v.min <= v.max;

/** `platform_fee` on a payment's creation: a fixed amount, or a percent of the total with optional bounds. */
export const platformFeeInputSchema = z
  .union([
    z.strictObject({ amount: cents("amount").meta({ description: "Cents" }) }),
    z
      .strictObject({ percent: feePercent.meta({ description: "Percent of the total, e.g. 2.5" }), ...bounds })
      .refine(minNotAboveMax, { message: "min must not be more than max", path: ["min"] }),
  ])
  .meta({
    id: "PlatformFeeInput",
    description:
      "The ISV's fee on this payment, taken from the merchant's share (the guide: /docs/guide#section-19): `{ amount }` in cents, or `{ percent, min?, max? }` of the total. Without it, the account's `settings.platform_fee_rules` apply. Not accepted from a merchant's own key.",
  });
export type PlatformFeeInput = z.infer<typeof platformFeeInputSchema>;

/** What a rule's fee is: an amount, a percent, or both (added), with optional bounds. */
export const platformFeeSpecSchema = z
  .strictObject({
    amount: cents("amount").optional().meta({ description: "Cents, added to the percent's part" }),
    percent: feePercent.optional().meta({ description: "Percent of the total, e.g. 2.5" }),
    ...bounds,
  })
  .refine((v) => v.amount !== undefined || v.percent !== undefined, {
    message: "a fee needs an amount, a percent or both",
  })
  .refine(minNotAboveMax, { message: "min must not be more than max", path: ["min"] });
export type PlatformFeeSpec = z.infer<typeof platformFeeSpecSchema>;

export const platformFeeRuleSchema = z
  .strictObject({
    match: z
      .strictObject({
        payment_type: z.enum(paymentTypes).optional(),
        card_present: z
          .boolean()
          .optional()
          .meta({ description: "true: terminal payments (a card read); false: the others (typed or paid online)" }),
        min_amount: cents("min_amount").optional().meta({ description: "Cents: totals from this amount" }),
        max_amount: cents("max_amount").optional().meta({ description: "Cents: totals up to this amount" }),
        merchant_ids: z.array(z.string().min(1).max(64)).min(1).max(100).optional(),
      })
      .refine((m) => m.min_amount === undefined || m.max_amount === undefined || m.min_amount <= m.max_amount, {
        message: "min_amount must not be more than max_amount",
        path: ["min_amount"],
      }),
    fee: platformFeeSpecSchema,
  })
  .meta({ id: "PlatformFeeRule" });
export type PlatformFeeRule = z.infer<typeof platformFeeRuleSchema>;

export const platformFeeRulesSchema = z.array(platformFeeRuleSchema).max(50, "at most 50 rules").meta({
  description:
    "Ordered: the first rule whose `match` fits the payment (every field given must fit) sets its platform fee, when the payment's creation gave none. Empty: no platform fee",
});

export const platformFeeRefundPolicies = ["pro_rata", "keep"] as const;
export type PlatformFeeRefundPolicy = (typeof platformFeeRefundPolicies)[number];

/** A charge's platform fee as the API shows it (null: none). */
export const chargePlatformFeeSchema = z
  .object({
    amount: z.number().int().meta({ description: "Cents taken from the merchant's share for the ISV" }),
    refunded: z.number().int().meta({ description: "Cents of it given back with refunds" }),
  })
  .meta({ id: "ChargePlatformFee" });

/** A platform fee's webhook object (`platform_fee.created`, `platform_fee.refunded`). */
export const platformFeeEventSchema = z
  .object({
    object: z.literal("platform_fee"),
    id: z.string().meta({ description: "The balance transaction (`txn_...`) that moved it" }),
    charge_id: z.string(),
    refund_id: z.string().nullable(),
    merchant_id: z.string(),
    amount: z.number().int().meta({ description: "Cents moved: the fee, or the part given back by the refund" }),
    charge_platform_fee: chargePlatformFeeSchema,
    created_at: z.number().int(),
  })
  .meta({ id: "PlatformFee" });
