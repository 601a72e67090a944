import type { StoredPayoutBankAccount } from "../schemas/payout-bank-account";

/** An ISV's bank account as the API shows it (docs/reference.md section 19): never its whole number. */
export function serializePayoutBankAccount(stored: StoredPayoutBankAccount | null) {
  if (!stored) return null;
  return {
    routing_number: stored.routing_number,
    last4: stored.last4,
    account_holder_name: stored.account_holder_name,
    account_type: stored.account_type,
    bank_name: stored.bank_name,
    status: stored.status,
    status_message: stored.status_message,
    verified_at: stored.verified_at,
    held_until: stored.hold_until ?? null,
  };
}
