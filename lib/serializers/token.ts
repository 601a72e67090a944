import type { TokenRow } from "../db/schema";

/** A token as POST /v1/tokens answers it: the card or bank account it stands for, never its number. */
export function serializeToken(row: TokenRow) {
  const base = { object: "token" as const, id: row.id, type: row.kind, expires_at: row.expiresAt.toISOString() };
  if (row.kind === "bank_account")
    return {
      ...base,
      bank_account: {
        bank_name: row.bankName,
        last4: row.last4,
        account_type: row.accountType!,
        account_holder_name: String(row.vault.holder_name ?? ""),
        fingerprint: row.fingerprint,
      },
    };
  return {
    ...base,
    card: {
      brand: row.brand!,
      last4: row.last4,
      exp_month: row.expMonth!,
      exp_year: row.expYear!,
      funding: row.funding!,
      fingerprint: row.fingerprint,
    },
  };
}
