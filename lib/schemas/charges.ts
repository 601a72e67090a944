import { z } from "zod";

import { costLineSchema } from "./cost-profile";
import { bankAccountTypes, cardEntryMethods, chargeStatuses, paymentMethods, paymentTypes } from "./payment-values";
import { chargePlatformFeeSchema } from "./platform-fees";
import { capabilityTypes } from "./vocabulary";

// Charges (reference "Charges"): the resource, its fee lines and its list filters.

export const feeLineSchema = z
  .object({
    type: z.enum(["processing", "interchange", "markup"]),
    model: z.enum(capabilityTypes),
    rate_bps: z.number().meta({ description: "The rate in basis points (1 bp = 0.01 %)" }),
    fixed: z.number().meta({ description: "The fixed part in cents (fractions of a cent when the pricing has them)" }),
    amount: z.number().int().meta({ description: "This line's share of the fee in cents; the lines add up to `fee`" }),
    description: z.string(),
  })
  .meta({ id: "FeeLine" });
export type FeeLine = z.infer<typeof feeLineSchema>;

const processorSchema = z.object({ id: z.string(), processor_type: z.enum(["ACH", "CREDIT_CARD"]) });
export const chargeRefundSchema = z.object({
  id: z.string(),
  charge_id: z.string(),
  merchant_id: z.string(),
  amount: z.number().int(),
  created_at: z.number().int(),
});

export const chargeSchema = z
  .object({
    object: z.literal("charge"),
    id: z.string(),
    merchant: z.object({
      id: z.string(),
      gateway_merchant_id: z.string().nullable(),
      api_key: z.string().nullable(),
      pub_api_key: z.string().nullable(),
      processors: z.array(processorSchema),
    }),
    payment_request_id: z.string(),
    customer: z.string().nullable().meta({
      description: "The merchant's customer (`cus_...`) the charge was for (section 21); null for a payer without one",
    }),
    payment_method_id: z.string().nullable().meta({
      description:
        "The saved payment method (`pm_...`) of a merchant-initiated charge (POST /v1/charges); null when the payer paid in person or on a pay page",
    }),
    payment_type: z.enum(paymentTypes),
    status: z.enum(chargeStatuses),
    currency: z.literal("usd"),
    requested_amount: z.number().int(),
    amount_authorized: z.number().int(),
    amount_captured: z.number().int(),
    amount_refunded: z.number().int(),
    tip: z.number().int(),
    tax: z.number().int(),
    payment_method: z.enum(paymentMethods).meta({ description: "card, or ach for a bank payment (an addition)" }),
    processor: processorSchema
      .nullable()
      .meta({ description: "The merchant's processor that took it: CREDIT_CARD for cards, ACH for bank payments" }),
    card_last_4: z.string().nullable().optional().meta({ description: "Absent on ACH charges" }),
    card_brand: z.string().nullable().optional(),
    card_expiration_date: z.string().nullable().optional(),
    card_type: z.string().nullable().optional(),
    card_entry_method: z.enum(cardEntryMethods),
    ach: z
      .object({
        last4: z.string(),
        account_type: z.enum(bankAccountTypes),
        bank_name: z.string().nullable(),
        cleared_at: z.string().nullable().meta({
          description:
            "When the debit cleared: its settlement's return check found no return. An ACH charge can be refunded only from then on (409 `invalid_state` before), so a debit is never refunded and then returned.",
        }),
        authorization: z
          .object({
            version: z.string(),
            locale: z.enum(["en", "es"]),
            text: z.string().meta({ description: "The words the payer accepted" }),
            accepted_at: z.string(),
            ip_address: z.string().nullable(),
          })
          .nullable()
          .meta({ description: "The payer's authorization of the debit; null on charges made before it was asked" }),
      })
      .optional()
      .meta({ description: "ACH charges only: the bank account (never its number)" }),
    billing_address: z
      .object({
        phone: z.string().nullable(),
        email: z.string().nullable(),
        company: z.string().optional(),
        first_name: z.string().optional(),
        last_name: z.string().optional(),
        address_line_1: z.string().optional(),
        address_line_2: z.string().optional(),
        city: z.string().optional(),
        state: z.string().optional(),
        postal_code: z.string().optional(),
        country: z.string().optional(),
        fax: z.string().optional(),
      })
      .nullable(),
    failure_reason: z.string().nullable(),
    receipt_number: z.string(),
    fee: z.number().int().nullable(),
    net: z.number().int().nullable().meta({
      description:
        "What the payment leaves the merchant, as the ledger has it (cents): captured − fee − the platform fee, less refunds (plus the platform fee they gave back) and an ACH return (plus its reversal). Null for a declined charge",
    }),
    fee_details: z.array(feeLineSchema).nullable(),
    platform_fee: chargePlatformFeeSchema.nullable().meta({
      description:
        "The ISV's platform fee on this charge (the guide: /docs/guide#section-19): taken from the merchant's share, shown to the merchant as \"<ISV> fee\"; `refunded`: what refunds gave back of it. Null: none",
    }),
    costs: z.number().int().nullable().optional().meta({
      description:
        "The ISV's eyes only (its key, JWT and webhooks; never a merchant's key): what the charge cost the platform (interchange, network, processor; ACH per item), in cents. Null before costs existed",
    }),
    cost_details: z
      .array(costLineSchema)
      .nullable()
      .optional()
      .meta({ description: "The ISV's eyes only: the lines of `costs`, adding up to it" }),
    margin: z
      .number()
      .int()
      .nullable()
      .optional()
      .meta({ description: "The ISV's eyes only: fee − costs, in cents (may be negative)" }),
    return_costs: z.number().int().nullable().optional().meta({
      description:
        "The ISV's eyes only: what the bank's return of this ACH debit cost the platform, in cents (null until returned)",
    }),
    settlement_id: z.string().nullable(),
    refunds: z.array(chargeRefundSchema),
    created_at: z.number().int(),
    authorized_at: z.number().int().nullable(),
    captured_at: z.number().int().nullable(),
    settled_at: z.number().int().nullable(),
    returned_at: z
      .number()
      .int()
      .nullable()
      .meta({ description: "ACH: when the customer's bank returned it (status RETURNED)" }),
    return_reversed_at: z
      .number()
      .int()
      .nullable()
      .meta({ description: "ACH: when the bank reversed that return (SETTLED again)" }),
    disputed: z.boolean().meta({ description: "Whether the customer disputed it (no refund from then on)" }),
    dispute_id: z.string().nullable().meta({ description: "The dispute (dp_...) when disputed" }),
  })
  .meta({ id: "Charge" });
export type ChargeJson = z.infer<typeof chargeSchema>;

export const chargeListQuery = z.object({
  merchant_id: z.string().max(64).optional(),
  status: z.enum(chargeStatuses).optional(),
  "created[gte]": z.coerce.number().int().min(0).optional().meta({ description: "Milliseconds since the epoch" }),
  "created[lte]": z.coerce.number().int().min(0).optional().meta({ description: "Milliseconds since the epoch" }),
});
