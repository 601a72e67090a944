import { z } from "zod";

import { balanceTransactionStatuses, balanceTransactionTypes } from "./ledger-values";

// Balances and balance transactions (docs/reference.md section 18): the ledger as a merchant sees it.

export const balanceSchema = z
  .object({
    object: z.literal("balance"),
    merchant_id: z.string(),
    available: z.number().int().meta({
      description:
        "Cents settled and not yet paid out (negative: owed by the merchant, taken from its next settlement)",
    }),
    pending: z.number().int().meta({
      description: "Cents not yet settled: payments less fees, refunds, returns and disputes since the last settlement",
    }),
    reserved: z.number().int().meta({ description: "Cents held back (reserves)" }),
    currency: z.literal("usd"),
  })
  .meta({ id: "Balance" });

export const balanceTransactionSchema = z
  .object({
    object: z.literal("balance_transaction"),
    id: z.string(),
    merchant_id: z.string(),
    type: z.enum(balanceTransactionTypes),
    source: z.string().meta({ description: "The object it comes from: ch_, re_, dp_, po_ ..." }),
    amount: z
      .number()
      .int()
      .meta({ description: "Signed cents: what it adds to (or takes from) the balance, before fees" }),
    fee: z.number().int().meta({ description: "Cents taken as fees from this amount" }),
    net: z.number().int().meta({ description: "amount − fee: what it changes in the merchant's balance" }),
    currency: z.literal("usd"),
    status: z.enum(balanceTransactionStatuses).meta({
      description: "pending until a settlement takes it, then available",
    }),
    available_on: z.string().meta({ description: "YYYY-MM-DD: the business day its funds are due to be paid out" }),
    settlement_id: z.string().nullable().meta({ description: "The settlement that took it" }),
    payout_id: z
      .string()
      .nullable()
      .meta({ description: "The payout that paid it out (a payout's lines sum to its amount)" }),
    description: z.string(),
    created_at: z.number().int().meta({ description: "Milliseconds since the epoch" }),
  })
  .meta({ id: "BalanceTransaction" });

export const balanceQuerySchema = z.object({
  merchant_id: z
    .string()
    .max(64)
    .optional()
    .meta({ description: "Required with an ISV's credentials; a merchant's own key reads its own" }),
});

const day = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, "Expected a date YYYY-MM-DD")
  .optional();

export const balanceTransactionListQuerySchema = z.object({
  merchant_id: z.string().max(64).optional(),
  payout: z
    .string()
    .max(64)
    .optional()
    .meta({ description: "A payout's id: its lines (they sum to its amount) and the payout itself" }),
  type: z.enum(balanceTransactionTypes).optional(),
  source: z.string().max(64).optional(),
  "created[gte]": z.coerce.number().int().min(0).optional().meta({ description: "Milliseconds since the epoch" }),
  "created[lte]": z.coerce.number().int().min(0).optional().meta({ description: "Milliseconds since the epoch" }),
  "available_on[gte]": day.meta({ description: "YYYY-MM-DD" }),
  "available_on[lte]": day.meta({ description: "YYYY-MM-DD" }),
});
export type BalanceTransactionListQuery = z.infer<typeof balanceTransactionListQuerySchema>;
