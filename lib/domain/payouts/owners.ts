import { eq } from "drizzle-orm";

import { decryptField } from "../../crypto/field-encryption";
import { one } from "../../db/one";
import { type AccountRow, accounts, type MerchantRow, merchants, type PayoutRow, residuals } from "../../db/schema";
import { type Db, type DbOrTx } from "../../db/types";
import {
  postAccountPayoutOutcome,
  postAccountPayoutSent,
  postPayoutOutcome,
  postPayoutSent,
} from "../../ledger/payout-movements";
import { log } from "../../log";
import type { BankFailureCode } from "../../schemas/payouts";
import { isCurrentAccount, payoutBankOf, refuseBankAccount } from "../accounts/payout-bank-account";
import { askForNewBankAccount } from "../merchants/ask-for-new-bank-account";
import { accountPayout, merchantPayout } from "./recipient";
import { type PayoutSettings, payoutSettingsOf } from "./settings";
import { bankOf, holdPayouts } from "./status";

// What differs between a payout's two recipients (docs/reference.md sections 16 and 19), for the one
// machine of ./advance-payout.ts: whose row is locked first, where the money goes, what may stop a
// send, and what follows the bank's answer. Everything else (the moves, the jobs, the events, the
// ledger's clearing account) is the same.

export type PayoutOwner =
  { kind: "merchant"; merchant: MerchantRow } | { kind: "account"; isv: AccountRow; settings: PayoutSettings };

/** The number of the account the payout goes to, in clear (asked of the bank before any transaction). */
export async function destinationNumber(db: Db, payout: PayoutRow): Promise<string | null> {
  if (payout.recipient === "merchant" && payout.merchantId) {
    const [merchant] = await db.select().from(merchants).where(eq(merchants.id, payout.merchantId));
    return merchant ? bankOf(merchant).number : null;
  }
  // The ISV's: the account it was made for (one made before destinations were kept: the current one).
  if (payout.destination) return decryptField(payout.destination.account_number);
  const [isv] = await db.select().from(accounts).where(eq(accounts.id, payout.isvAccountId));
  return (isv && payoutBankOf(isv)?.number) ?? null;
}

/** The owner's row, locked: the first lock of every change to its payouts, so two never wait on each other. */
export async function lockOwner(tx: DbOrTx, payout: Pick<PayoutRow, "recipient" | "merchantId" | "isvAccountId">) {
  if (payout.recipient === "merchant" && payout.merchantId) {
    const merchant = one(await tx.select().from(merchants).where(eq(merchants.id, payout.merchantId)).for("update"));
    return { kind: "merchant", merchant } satisfies PayoutOwner;
  }
  const isv = one(await tx.select().from(accounts).where(eq(accounts.id, payout.isvAccountId)).for("update"));
  return { kind: "account", isv, settings: await payoutSettingsOf(tx, isv.id) } satisfies PayoutOwner;
}

/** Why the payout may not be sent now, or null. (A merchant's payout that must wait is `held`, never pending.) */
export function sendRefusal(owner: PayoutOwner) {
  if (owner.kind === "account" && owner.settings.frozenAt)
    return "Cannot send: the ISV's payouts are frozen until the operator releases them";
  return null;
}

/** The bank account as it is when sent (a merchant's; the ISV's payout keeps the one it was made for). */
export const bankWhenSent = (owner: PayoutOwner) => {
  if (owner.kind === "account") return {};
  const bank = bankOf(owner.merchant);
  return { bankLast4: bank.last4, bankName: bank.name };
};

/** Sent: its money leaves the owner's balance now (a merchant's `available`, the ISV's `revenue`). */
export async function afterSent(tx: DbOrTx, sent: PayoutRow, now: Date) {
  if (sent.recipient === "merchant") await postPayoutSent(tx, merchantPayout(sent), now);
  else await postAccountPayoutSent(tx, accountPayout(sent), now);
}

/** Paid: the money left the platform; an ISV's residual is `paid`. */
export async function afterPaid(tx: DbOrTx, paid: PayoutRow) {
  if (paid.recipient === "merchant") return postPayoutOutcome(tx, merchantPayout(paid), "paid");
  const payout = accountPayout(paid);
  await postAccountPayoutOutcome(tx, payout, "paid");
  await tx.update(residuals).set({ status: "paid" }).where(eq(residuals.id, payout.residualId));
}

/**
 * Refused: the money is the owner's again. A merchant's later payouts wait (`payout_failed`) and it
 * is asked for a new bank account (requirement `merchant.bank_account`, in the home and by e-mail);
 * the ISV's residual waits for a payout again and its bank account, if it is still the one refused,
 * becomes `unverified`. Either way a verified new account gets a replacement (`replaces`).
 */
export async function afterFailed(tx: DbOrTx, owner: PayoutOwner, failed: PayoutRow, code: BankFailureCode) {
  if (owner.kind === "merchant") {
    await postPayoutOutcome(tx, merchantPayout(failed), "failed");
    const updated = await askForNewBankAccount(tx, owner.merchant, { code, amount: failed.amount });
    await holdPayouts(tx, updated, "payout_failed");
    log.warn({ payout_id: failed.id, merchant_id: owner.merchant.id, code }, "payout failed");
    return;
  }
  const payout = accountPayout(failed);
  await postAccountPayoutOutcome(tx, payout, "failed");
  await tx.update(residuals).set({ payoutId: null }).where(eq(residuals.id, payout.residualId));
  if (!payout.destination || isCurrentAccount(owner.isv, payout.destination))
    await refuseBankAccount(tx, payout.isvAccountId, code);
  log.warn({ payout_id: payout.id, isv_account_id: payout.isvAccountId, code }, "residual payout failed");
}
