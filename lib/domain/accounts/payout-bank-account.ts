import { eq } from "drizzle-orm";

import { clock } from "../../clock";
import { decryptField, encryptField } from "../../crypto/field-encryption";
import { type AccountRow, accounts } from "../../db/schema";
import { type DbOrTx } from "../../db/types";
import { enqueueJob } from "../../jobs/job-types";
import { businessDaysAfter } from "../../payouts/business-days";
import type {
  PayoutBankAccountInput,
  PayoutDestination,
  StoredPayoutBankAccount,
} from "../../schemas/payout-bank-account";
import type { PayoutFailureCode } from "../../schemas/payouts";
import { verificationProvider } from "../../verification/provider";
import { newBankAccountHoldDaysOf } from "./isv-facts";
import { queueAccountChangeNotices } from "./payout-account-change";

// The ISV's own bank account (docs/reference.md section 19): given with PATCH /v1/account, checked by
// the verification provider like a merchant's (the sandbox: 000444444440 is not confirmed), and only
// once verified (and past the hold of a changed account) does a residual's payout go to it. Who may
// change it: lib/domain/accounts/payout-account-change.ts.

/** Where the ISV's payouts go, its number in clear (for the bank only); null: none given. */
export function payoutBankOf(isv: Pick<AccountRow, "payoutBankAccount">) {
  const stored = isv.payoutBankAccount;
  if (!stored) return null;
  return {
    number: decryptField(stored.account_number),
    last4: stored.last4,
    bankName: stored.bank_name,
    status: stored.status,
  };
}

/**
 * A new bank account, `pending` until its check answers (queued in the caller's transaction). One
 * that replaces an account already given holds residuals for `settings.new_bank_account_hold_days`
 * business days (`hold_until`); every user of the ISV is e-mailed a "this wasn't us" link. The
 * caller has checked who may (assertMayChangePayoutAccount).
 */
export async function setPayoutBankAccount(
  tx: DbOrTx,
  isv: AccountRow,
  input: PayoutBankAccountInput,
  changedBy: string | null,
  now = clock.now(),
) {
  const isvAccountId = isv.id;
  const createdAt = now.toISOString();
  const holdDays = isv.payoutBankAccount ? newBankAccountHoldDaysOf(isv) : 0;
  const stored: StoredPayoutBankAccount = {
    routing_number: input.routing_number,
    account_number: encryptField(input.account_number),
    last4: input.account_number.slice(-4),
    account_holder_name: input.account_holder_name,
    account_type: input.account_type,
    bank_name: input.bank_name ?? null,
    status: "pending",
    status_message: null,
    verified_at: null,
    created_at: createdAt,
    hold_until: holdDays > 0 ? businessDaysAfter(now, holdDays).toISOString() : null,
  };
  await tx.update(accounts).set({ payoutBankAccount: stored }).where(eq(accounts.id, isvAccountId));
  const delay = verificationProvider().delayMs ?? 0;
  await enqueueJob(
    tx,
    "account_bank_check",
    { account_id: isvAccountId, given_at: createdAt },
    { runAt: new Date(now.getTime() + delay), key: `account_bank_check_${isvAccountId}_${createdAt}` },
  );
  await queueAccountChangeNotices(tx, isv, { last4: stored.last4, holdDays, changedBy }, now);
}

/** Where a payout made now goes: the account as it is, kept with the payout. */
export function destinationOf(stored: StoredPayoutBankAccount): PayoutDestination {
  return {
    routing_number: stored.routing_number,
    account_number: stored.account_number,
    last4: stored.last4,
    bank_name: stored.bank_name,
    account_holder_name: stored.account_holder_name,
  };
}

/** Whether a payout's destination is the ISV's current account (the same routing and account numbers). */
export function isCurrentAccount(isv: Pick<AccountRow, "payoutBankAccount">, destination: PayoutDestination) {
  const current = isv.payoutBankAccount;
  return Boolean(
    current &&
    current.routing_number === destination.routing_number &&
    decryptField(current.account_number) === decryptField(destination.account_number),
  );
}

/** The bank refused a payout to this account: it is no longer where money goes, until another is given and verified. */
export async function refuseBankAccount(tx: DbOrTx, isvAccountId: string, code: PayoutFailureCode) {
  const [isv] = await tx.select().from(accounts).where(eq(accounts.id, isvAccountId));
  const current = isv?.payoutBankAccount;
  if (!current) return;
  await tx
    .update(accounts)
    .set({
      payoutBankAccount: {
        ...current,
        status: "unverified",
        status_message: `The bank refused a payout to this account (${code}). Give another bank account: the residual is paid to it once it is verified.`,
      },
    })
    .where(eq(accounts.id, isvAccountId));
}
