import type { TokenRow } from "../db/schema";
import { must } from "../must";

/** A token as POST /v1/tokens answers it: the card or bank account it stands for, never its number. */
export function serializeToken(row: TokenRow) {
  const base = { object: "token" as const, id: row.id, type: row.kind, expires_at: row.expiresAt.toISOString() };
  if (row.kind === "bank_account")
    return {
      ...base,
      bank_account: {
        bank_name: row.bankName,
        last4: row.last4,
        account_type: must(row.accountType, "a bank account token's account type"),
        account_holder_name: String(row.vault.holder_name ?? ""),
        fingerprint: row.fingerprint,
      },
    };
  return {
    ...base,
    card: {
      brand: must(row.brand, "a card token's brand"),
      last4: row.last4,
      exp_month: must(row.expMonth, "a card token's expiry month"),
      exp_year: must(row.expYear, "a card token's expiry year"),
      funding: must(row.funding, "a card token's funding"),
      fingerprint: row.fingerprint,
    },
  };
}
