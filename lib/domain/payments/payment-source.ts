import { and, eq, gt, isNull, sql } from "drizzle-orm";

import { clock } from "../../clock";
import { type BillingAddress, cardTokens } from "../../db/schema";
import type { DbOrTx } from "../../db/types";
import { invalid } from "../../errors";
import { must } from "../../must";
import type { Funding } from "../../schemas/payment-values";
import { normalizePhone } from "../merchants/application";

// What pays a payment request: a card or a bank account as the processor's vault holds it (never a
// card or account number), spent from a single-use token of the tokenizer; and the payer's details.

/** A card ready to charge: what the platform keeps about it, and the processor's vault reference. */
export type VaultedCard = {
  kind?: "card";
  brand: string;
  last4: string;
  expMonth: number;
  expYear: number;
  funding: Funding;
  fingerprint: string;
  vault: Record<string, unknown>;
};
/** A bank account ready to debit (ACH): never its number, only the ACH processor's vault reference. */
export type VaultedBankAccount = {
  kind: "bank_account";
  last4: string;
  accountType: "checking" | "savings";
  bankName: string | null;
  routingNumber: string;
  fingerprint: string;
  vault: Record<string, unknown>;
};
export type PaymentSource = VaultedCard | VaultedBankAccount;
export type Customer = {
  email?: string;
  /** The language the payer read the pay page in: its receipt's. */
  locale?: "en" | "es";
  phone?: string;
  billing_address?: Partial<BillingAddress> & Record<string, string | undefined>;
};

/**
 * Spends a token of the tokenizer: single use, 30 minutes, bound to the merchant. Called once the
 * request is claimed, so that a refused attempt (the request paid or locked) leaves the token unspent.
 */
export async function spendToken(db: DbOrTx, tokenId: string, merchantId: string): Promise<PaymentSource> {
  const [token] = await db
    .update(cardTokens)
    .set({ usedAt: clock.now() })
    .where(
      and(
        eq(cardTokens.id, tokenId),
        eq(cardTokens.merchantId, merchantId),
        isNull(cardTokens.usedAt),
        gt(cardTokens.expiresAt, sql`now()`),
      ),
    )
    .returning();
  if (!token) {
    const [known] = await db
      .select()
      .from(cardTokens)
      .where(and(eq(cardTokens.id, tokenId), eq(cardTokens.merchantId, merchantId)));
    const why = !known
      ? "No such token"
      : known.usedAt
        ? "This token was already used: tokenize the card again"
        : "This token has expired: tokenize the card again";
    throw invalid("token", why, "token_invalid");
  }
  return vaultedSource(token);
}

/** What the platform keeps of a card or bank account (a token's, a saved method's), as a source to charge. */
export function vaultedSource(row: {
  kind: "card" | "bank_account";
  brand: string | null;
  last4: string;
  expMonth: number | null;
  expYear: number | null;
  funding: Funding | null;
  accountType: "checking" | "savings" | null;
  bankName: string | null;
  routingNumber: string | null;
  fingerprint: string;
  vault: Record<string, unknown>;
}): PaymentSource {
  if (row.kind === "bank_account")
    return {
      kind: "bank_account",
      last4: row.last4,
      accountType: row.accountType ?? "checking",
      bankName: row.bankName,
      routingNumber: row.routingNumber ?? "",
      fingerprint: row.fingerprint,
      vault: row.vault,
    };
  return {
    kind: "card",
    brand: must(row.brand, "a card's brand"),
    last4: row.last4,
    expMonth: must(row.expMonth, "a card's expiry month"),
    expYear: must(row.expYear, "a card's expiry year"),
    funding: must(row.funding, "a card's funding"),
    fingerprint: row.fingerprint,
    vault: row.vault,
  };
}

/** The payer's details as the charge keeps them (phone normalized, empty fields left out), or null. */
export function billingAddressOf(customer: Customer): BillingAddress | null {
  const given = customer.billing_address ?? {};
  const email = customer.email ?? given.email ?? null;
  const givenPhone = customer.phone ?? given.phone;
  const phone = givenPhone ? normalizePhone(givenPhone) : null;
  const rest = Object.fromEntries(
    Object.entries(given).filter(([k, v]) => k !== "email" && k !== "phone" && v !== undefined && v !== ""),
  );
  if (!email && !phone && Object.keys(rest).length === 0) return null;
  return { ...rest, phone, email };
}
