import { env } from "../env";
import type { BankFailureCode } from "../schemas/payouts";

// Who moves a payout's money (docs/reference.md section 16). The sandbox's provider answers at once
// and by magic values: the account number 000555555550 is a closed account, every other one is
// credited. Production has no ACH credit provider yet: its payouts are made, held and released by
// the same rules, and stay `pending` (not sent) until one is configured.

export type PayoutOutcome = { status: "paid" } | { status: "failed"; code: BankFailureCode };

export interface PayoutProvider {
  /** Whether payouts are sent at all (false: they wait, pending). */
  readonly sends: boolean;
  /** The bank's answer to a credit of `amount` cents to this account (its plain number). */
  outcome(input: { amount: number; accountNumber: string | null }): Promise<PayoutOutcome>;
}

/** The sandbox's closed account: a payout to it fails with `account_closed`. */
export const SANDBOX_CLOSED_ACCOUNT = "000555555550";

export const sandboxPayouts: PayoutProvider = {
  sends: true,
  async outcome({ accountNumber }) {
    if (accountNumber === null) return { status: "failed", code: "no_account" };
    if (accountNumber === SANDBOX_CLOSED_ACCOUNT) return { status: "failed", code: "account_closed" };
    if (!/^\d{4,17}$/.test(accountNumber)) return { status: "failed", code: "invalid_account_number" };
    return { status: "paid" };
  },
};

const noProvider: PayoutProvider = {
  sends: false,
  outcome: () => Promise.reject(new Error("no payout provider is configured")),
};

export const payoutProvider = (): PayoutProvider => (env.APP_ENV === "sandbox" ? sandboxPayouts : noProvider);
