import { eq } from "drizzle-orm";

import { hostedBaseUrl } from "../../branding/hosts";
import { clock } from "../../clock";
import { one } from "../../db/one";
import { type MerchantRow, merchants } from "../../db/schema";
import { type DbOrTx } from "../../db/types";
import { contactEmailOf, merchantLocale } from "../../merchants/facts";
import { queueEmail } from "../../notifications/send-email";
import { payoutFailed } from "../../notifications/templates";
import type { BankFailureCode } from "../../schemas/payouts";
import { brandOf } from "../accounts/isv-facts";
import { recordMerchantEvent } from "./merchant-event";
import { askFor } from "./requirements";

const messages: Record<BankFailureCode, string> = {
  account_closed: "The bank account is closed: a payout to it was refused. Enter a new bank account.",
  no_account: "The bank account does not exist: a payout to it was refused. Enter a new bank account.",
  invalid_account_number: "The bank account number is not valid: a payout to it was refused. Enter a new bank account.",
};

/**
 * The merchant's side of a payout its bank refused, in the payout's transaction (the merchant's row
 * locked): a new bank account asked for (requirement `merchant.bank_account`, code `payout_failed`:
 * the home shows it, and it holds the payouts until answered), `merchant.updated`, and an e-mail to
 * the contact. Answers the merchant as written.
 */
export async function askForNewBankAccount(
  tx: DbOrTx,
  merchant: MerchantRow,
  payout: { code: BankFailureCode; amount: number },
): Promise<MerchantRow> {
  const field = "merchant.bank_account";
  const requirements = askFor(
    merchant.requirements,
    { field, code: "payout_failed", message: messages[payout.code] },
    (e) => e.field === field && e.code === "payout_failed",
  );
  const updated = one(
    await tx
      .update(merchants)
      .set({ requirements, updatedAt: clock.now() })
      .where(eq(merchants.id, merchant.id))
      .returning(),
  );
  const isv = await recordMerchantEvent(tx, "merchant.updated", updated, { fields: ["requirements"] });
  const to = contactEmailOf(merchant);
  if (to) {
    const locale = merchantLocale(merchant);
    await queueEmail(tx, {
      accountId: merchant.isvAccountId,
      merchantId: merchant.id,
      kind: "payout_failed",
      to,
      locale,
      ...payoutFailed({
        brand: brandOf(isv),
        locale,
        amount: payout.amount,
        code: payout.code,
        url: `${hostedBaseUrl(isv)}/home/settings`,
      }),
    });
  }
  return updated;
}
