import { z } from "zod";

import { metadataSchema } from "./customers";
import { cents, MAX_TOTAL } from "./money-fields";
import { itemSchema } from "./payment-requests";

// Payment links (docs/reference.md section 21).

const positiveCents = (what: string) => cents(what).min(1, `${what} must be at least 1 cent`);

export const createPaymentLinkSchema = z
  .strictObject({
    merchant_id: z
      .string()
      .min(1)
      .max(64)
      .optional()
      .meta({ description: "Required with the ISV's key.", example: "mer_4kZ2qV9sT1pLmN8xRw3YbC" }),
    amount: positiveCents("amount").optional().meta({ description: "A fixed amount in cents" }),
    items: z.array(itemSchema).min(1).max(20).optional().meta({ description: "Or items (their sum is the amount)" }),
    customer_chooses_amount: z
      .strictObject({
        min: positiveCents("min").optional().meta({ description: "Cents (default 100)" }),
        max: positiveCents("max")
          .optional()
          .meta({ description: `Cents (default ${MAX_TOTAL})` }),
      })
      .optional()
      .meta({ description: "Or the customer types the amount, between `min` and `max`" }),
    description: z.string().trim().min(1).max(500).optional(),
    max_uses: z.number().int().min(1).max(1_000_000).optional().meta({
      description: "Payments the link takes, then it turns itself off (requests already opened may still be paid)",
    }),
    expires_at: z
      .number()
      .int()
      .optional()
      .meta({ description: "Milliseconds since the epoch: it takes no payment after" }),
    metadata: metadataSchema.optional(),
  })
  .superRefine((input, ctx) => {
    const given = [input.amount, input.items, input.customer_chooses_amount].filter((v) => v !== undefined).length;
    if (given !== 1)
      ctx.addIssue({
        code: "custom",
        path: ["amount"],
        message: "Send one of amount, items or customer_chooses_amount",
      });
    const chooses = input.customer_chooses_amount;
    if (chooses?.min !== undefined && chooses.max !== undefined && chooses.min > chooses.max)
      ctx.addIssue({ code: "custom", path: ["customer_chooses_amount", "min"], message: "min must not exceed max" });
    if (input.items && input.items.reduce((sum, i) => sum + i.unit_price * i.quantity, 0) <= 0)
      ctx.addIssue({ code: "custom", path: ["items"], message: "the items must add up to more than 0" });
  })
  .meta({ id: "CreatePaymentLinkRequest" });
export type CreatePaymentLinkInput = z.infer<typeof createPaymentLinkSchema>;

export const updatePaymentLinkSchema = z
  .strictObject({
    active: z.boolean().optional().meta({ description: "false: a visit shows that the link no longer takes payments" }),
    metadata: metadataSchema.optional().meta({ description: "Merges; a key sent with an empty string is removed." }),
  })
  .meta({ id: "UpdatePaymentLinkRequest" });
export type UpdatePaymentLinkInput = z.infer<typeof updatePaymentLinkSchema>;

export const paymentLinkSchema = z
  .object({
    object: z.literal("payment_link"),
    id: z.string(),
    merchant_id: z.string(),
    url: z.string().meta({ description: "Each visit makes a payment request and redirects (303) to its pay page" }),
    qr_code_url: z.string().meta({ description: "A PNG QR code of `url` (`?format=svg` for SVG); public" }),
    active: z.boolean(),
    amount: z
      .number()
      .int()
      .nullable()
      .meta({ description: "The fixed amount (or the items' sum); null when the customer chooses" }),
    items: z.array(itemSchema).nullable(),
    customer_chooses_amount: z.object({ min: z.number().int(), max: z.number().int() }).nullable(),
    description: z.string().nullable(),
    max_uses: z.number().int().nullable(),
    paid_count: z.number().int().meta({ description: "Payments made through the link" }),
    expires_at: z.number().int().nullable(),
    metadata: z.record(z.string(), z.string()),
    created_at: z.number().int(),
  })
  .meta({ id: "PaymentLink" });

export const paymentLinkListQuery = z.object({
  merchant_id: z.string().max(64).optional(),
  active: z.enum(["true", "false"]).optional(),
});
