import { z } from "zod";

import type { Encrypted } from "../crypto/field-encryption";
import { bankAccountTypes } from "./payment-values";

// The ISV's own bank account (docs/reference.md section 19): where its residuals are paid. Verified
// like a merchant's before any money goes to it; its number is encrypted at rest and never shown whole.

export const payoutBankAccountStatuses = ["pending", "verified", "unverified"] as const;
export type PayoutBankAccountStatus = (typeof payoutBankAccountStatuses)[number];

export const payoutBankAccountInputSchema = z
  .strictObject({
    routing_number: z.string().regex(/^\d{9}$/, "must be 9 digits"),
    account_number: z.string().regex(/^\d{4,17}$/, "must be 4 to 17 digits"),
    account_holder_name: z.string().trim().min(1).max(100),
    account_type: z.enum(bankAccountTypes).default("checking"),
    bank_name: z.string().trim().max(100).optional(),
  })
  .meta({
    id: "PayoutBankAccountInput",
    description:
      "The ISV's bank account for its residuals: replaced whole; verified before any payout reaches it (`status`).",
  });
export type PayoutBankAccountInput = z.infer<typeof payoutBankAccountInputSchema>;

/** As kept: the number encrypted (lib/crypto/field-encryption.ts), its last four in clear. */
export type StoredPayoutBankAccount = {
  routing_number: string;
  account_number: Encrypted;
  last4: string;
  account_holder_name: string;
  account_type: (typeof bankAccountTypes)[number];
  bank_name: string | null;
  status: PayoutBankAccountStatus;
  status_message: string | null;
  verified_at: string | null;
  created_at: string;
  /** A change of an account already given: payouts to this one wait until then (ISO; absent or null: none). */
  hold_until?: string | null;
};

/** Where one ISV payout goes, kept with the payout (its number encrypted). */
export type PayoutDestination = Pick<
  StoredPayoutBankAccount,
  "routing_number" | "account_number" | "last4" | "bank_name" | "account_holder_name"
>;

export const payoutBankAccountSchema = z
  .object({
    routing_number: z.string(),
    last4: z.string(),
    account_holder_name: z.string(),
    account_type: z.enum(bankAccountTypes),
    bank_name: z.string().nullable(),
    status: z.enum(payoutBankAccountStatuses).meta({
      description:
        "`pending` while it is checked; `verified`: residuals are paid to it; `unverified`: the check did not confirm it, or the bank refused a payout (`status_message` says why; give another)",
    }),
    status_message: z.string().nullable(),
    verified_at: z.string().nullable(),
    held_until: z.string().nullable().meta({
      description:
        "When this account replaced an earlier one: residuals wait until then before they are paid to it (`settings.new_bank_account_hold_days` business days after the change); null otherwise",
    }),
  })
  .meta({ id: "PayoutBankAccount" });
