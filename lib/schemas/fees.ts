import { z } from "zod";

import { feeLineSchema } from "./charges";
import { MAX_TOTAL } from "./money-fields";
import { cardEntryMethods, fundingValues, paymentMethods } from "./payment-values";

// The fee preview: what a charge would cost the merchant.

export const feePreviewRequestSchema = z
  .strictObject({
    merchant_id: z.string().min(1).max(64),
    amount: z.number().int("must be a whole number of cents").min(0).max(MAX_TOTAL),
    payment_method: z
      .enum(paymentMethods)
      .optional()
      .meta({ description: "card (default) or ach: a bank payment, priced by the ACH options" }),
    card_entry_method: z.enum(cardEntryMethods).optional().meta({ description: "Required for a card" }),
    card_brand: z
      .string()
      .min(1)
      .max(32)
      .optional()
      .meta({ description: "Required for a card: visa, mastercard, amex, discover..." }),
    funding: z.enum(fundingValues).optional().meta({ description: "Default credit" }),
    keyed_with_postal_code: z.boolean().optional().meta({
      description: "Tiered pricing: a keyed card with a billing postal code is mid-qualified (default false)",
    }),
  })
  .meta({ id: "FeePreviewRequest" });

export const feePreviewSchema = z
  .object({
    object: z.literal("fee_preview"),
    merchant_id: z.string(),
    amount: z.number().int(),
    currency: z.literal("usd"),
    model: z.string().nullable(),
    fee: z.number().int().nullable(),
    net: z.number().int().nullable(),
    fee_details: z.array(feeLineSchema),
  })
  .meta({ id: "FeePreview" });
