import { z } from "zod";

// A merchant's debit card for instant payouts by push to card (docs/reference.md section 20).

export const payoutCardSchema = z
  .object({
    object: z.literal("payout_card"),
    id: z.string(),
    merchant_id: z.string(),
    brand: z.string().meta({ description: "visa, mastercard, discover, ..." }),
    last4: z.string(),
    exp_month: z.number().int(),
    exp_year: z.number().int(),
    funding: z.literal("debit").meta({ description: "Only a debit card receives payouts" }),
    usable_from: z.string().meta({
      description:
        "YYYY-MM-DD: instant payouts reach the card from this day (the ISV's `settings.new_bank_account_hold_days` business days after it was added)",
    }),
    status: z.enum(["active", "removed"]),
    created_at: z.number().int().meta({ description: "Milliseconds since the epoch" }),
  })
  .meta({ id: "PayoutCard" });

export const setPayoutCardSchema = z
  .strictObject({
    token: z.string().max(64).meta({
      description:
        "A card token (`tok_...`) of the merchant's tokenizer frame (`/tokenizer/card` with its publishable key): a debit card",
    }),
  })
  .meta({ id: "SetPayoutCardRequest" });
