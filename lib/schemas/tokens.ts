import { z } from "zod";

import { bankAccountTypes, fundingValues } from "./payment-values";

// Tokens: what the tokenizer frame sends (a card or a bank account) and what it answers.

export const bankAccountInputSchema = z
  .strictObject({
    routing_number: z
      .string()
      .max(32)
      .meta({ description: "Nine digits; the ABA checksum is checked", example: "021000021" }),
    account_number: z
      .string()
      .max(32)
      .meta({ description: "4 to 17 digits; never stored (the token keeps the last four)", example: "000123456789" }),
    account_holder_name: z.string().max(100),
    account_type: z.enum(bankAccountTypes, { error: "must be checking or savings" }),
  })
  .meta({ id: "BankAccountInput" });

export const cardInputSchema = z
  .strictObject({
    card: z
      .strictObject({
        number: z.string().max(32),
        exp_month: z.union([z.number().int(), z.string().max(2)]),
        exp_year: z.union([z.number().int(), z.string().max(4)]),
        cvc: z.string().max(4),
      })
      .optional(),
    bank_account: bankAccountInputSchema.optional().meta({
      description:
        "Instead of `card`, for merchants with `ach` in their capability types (the invoice and manual pages)",
    }),
  })
  .meta({ id: "CreateTokenRequest" });
export type TokenInput = z.infer<typeof cardInputSchema>;

export const tokenSchema = z
  .object({
    object: z.literal("token"),
    id: z.string(),
    type: z.enum(["card", "bank_account"]),
    card: z
      .object({
        brand: z.string(),
        last4: z.string(),
        exp_month: z.number().int(),
        exp_year: z.number().int(),
        funding: z.enum(fundingValues),
        fingerprint: z.string(),
      })
      .optional(),
    bank_account: z
      .object({
        bank_name: z.string().nullable(),
        last4: z.string(),
        account_type: z.enum(bankAccountTypes),
        account_holder_name: z.string(),
        fingerprint: z.string(),
      })
      .optional(),
    expires_at: z.string(),
  })
  .meta({ id: "Token" });
