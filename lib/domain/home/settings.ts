import { eq } from "drizzle-orm";

import { isEncrypted } from "../../crypto/field-encryption";
import { accounts, type MerchantRow, merchants } from "../../db/schema";
import { type Db, type DbOrTx } from "../../db/types";
import { AppError, type FieldError, invalidFields, issuesToFieldErrors } from "../../errors";
import { accountConfirmationProblem, routingNumberProblem } from "../../onboarding/cross-field";
import { partialApplicationSchema } from "../../schemas/merchant";
import { serializeMerchant } from "../../serializers/merchant";
import { getAccount } from "../accounts/get-account";
import { recordEvent } from "../events/record-event";
import { mergeApplicationChange } from "../merchants/change-application";
import { requirementsFor } from "../merchants/requirements";
import { reconsiderPayouts } from "../payouts/payouts";
import { payoutFailureOf } from "../payouts/rules";
import { startChecks } from "../verification/checks";

export type ContactChange = { name: string; email: string; business_phone?: string | null };

/**
 * The home's settings: the approved merchant's contact (name, e-mail: where sign-in links and
 * notices go) and its business phone. The rest of the application is closed once approved; these
 * are not in the signed agreement's text, so the signature stands. Validated by the application's
 * own rules; writes `merchant.updated` in the same transaction.
 */
export async function changeContact(db: Db, merchantId: string, change: ContactChange) {
  return db.transaction(async (tx) => {
    const [merchant] = await tx.select().from(merchants).where(eq(merchants.id, merchantId)).for("update");
    if (!merchant || merchant.status !== "APPROVED")
      throw new AppError("merchant_not_approved", "The contact is changed here once the merchant is approved");
    const patch: Record<string, unknown> = { main_contact_person: { name: change.name, email: change.email } };
    if (change.business_phone) patch.business_phone = change.business_phone;
    // The application's own schema (the API's and the wizard's), then its merge.
    const parsed = partialApplicationSchema.safeParse(patch);
    if (!parsed.success) throw invalidFields(issuesToFieldErrors(parsed.error.issues, ["merchant"], patch));
    const checked = { ...parsed.data, ...(change.business_phone === null ? { business_phone: null } : {}) };
    const { application, errors } = mergeApplicationChange(
      merchant.application,
      { merchant: checked as never },
      "merchant",
    );
    if (errors.length) throw invalidFields(errors);
    const [updated] = await tx
      .update(merchants)
      .set({ application, updatedAt: new Date() })
      .where(eq(merchants.id, merchant.id))
      .returning();
    const isv = await getAccount(tx, merchant.isvAccountId);
    await recordEvent(tx, {
      accountId: merchant.isvAccountId,
      type: "merchant.updated",
      objectId: merchant.id,
      data: serializeMerchant(updated!, isv, requirementsFor(updated!, isv)),
      fields: [
        "merchant.main_contact_person",
        ...(change.business_phone !== undefined ? ["merchant.business_phone"] : []),
      ],
    });
    return updated!;
  });
}

/** The bank account payments reach, as it may be shown: its bank's name and the account number's last four. */
export function bankAccountSummary(merchant: MerchantRow): { bankName: string | null; last4: string } | null {
  const bank = (merchant.application as Record<string, unknown>).bank_account as
    { bank_name?: string; account_number?: unknown } | undefined;
  const number = bank?.account_number;
  const last4 = isEncrypted(number) ? number.last4 : typeof number === "string" ? number.slice(-4) : null;
  return last4 ? { bankName: bank?.bank_name ?? null, last4 } : null;
}

/** The merchant's own account's SID (its API key's user name), once it has an account (approved). */
export async function merchantAccountSid(db: DbOrTx, merchant: MerchantRow): Promise<string | null> {
  if (!merchant.merchantAccountId) return null;
  const [row] = await db
    .select({ sid: accounts.sid })
    .from(accounts)
    .where(eq(accounts.id, merchant.merchantAccountId));
  return row?.sid ?? null;
}

export type BankAccountChange = {
  bank_name: string;
  routing_number: string;
  account_holder_name: string;
  account_number: string;
  account_number_confirm: string;
};

/**
 * The home's settings: a new bank account for an approved merchant, by the application's own rules
 * (routing number, both account numbers alike), encrypted as every account number is. Its
 * verification check runs again at once (the others keep their results); until it has verified,
 * the home says so (and, when payouts exist, they wait for it). Writes `merchant.updated` and
 * `merchant.verification_updated` in the same transaction.
 */
export async function changeBankAccount(db: Db, merchantId: string, change: BankAccountChange) {
  return db.transaction(async (tx) => {
    const [merchant] = await tx.select().from(merchants).where(eq(merchants.id, merchantId)).for("update");
    if (!merchant || merchant.status !== "APPROVED")
      throw new AppError("merchant_not_approved", "The bank account is changed here once the merchant is approved");
    const patch = { bank_account: change };
    const parsed = partialApplicationSchema.safeParse(patch);
    if (!parsed.success) throw invalidFields(issuesToFieldErrors(parsed.error.issues, ["merchant"], patch));
    // The rules across fields the wizard and underwriting apply (no underwriting follows this change).
    const crossField: FieldError[] = [];
    if (routingNumberProblem(change.routing_number))
      crossField.push({
        param: "merchant.bank_account.routing_number",
        code: "routing_number_invalid",
        message: "The routing number is not a valid ABA routing number (its check digit does not match)",
      });
    if (accountConfirmationProblem(change))
      crossField.push({
        param: "merchant.bank_account.account_number_confirm",
        code: "account_number_mismatch",
        message: "The two account numbers differ",
      });
    if (crossField.length) throw invalidFields(crossField);
    const { application, errors } = mergeApplicationChange(
      merchant.application,
      { merchant: parsed.data as never },
      "merchant",
    );
    if (errors.length) throw invalidFields(errors);
    // A payout refused by the old account asked for this one: asked no more (payouts still wait
    // for the new account's check).
    const requirements = withoutPayoutFailure(merchant.requirements);
    const [written] = await tx
      .update(merchants)
      .set({ application, requirements, updatedAt: new Date() })
      .where(eq(merchants.id, merchant.id))
      .returning();
    const isv = await getAccount(tx, merchant.isvAccountId);
    await recordEvent(tx, {
      accountId: merchant.isvAccountId,
      type: "merchant.updated",
      objectId: merchant.id,
      data: serializeMerchant(written!, isv, requirementsFor(written!, isv)),
      fields: ["merchant.bank_account"],
    });
    const checked = await startChecks(tx, written!);
    await reconsiderPayouts(tx, checked);
    return checked;
  });
}

/** The merchant's requirements without the new bank account a failed payout asked for (null: none left). */
function withoutPayoutFailure(requirements: MerchantRow["requirements"]): MerchantRow["requirements"] {
  if (!requirements) return null;
  const failure = payoutFailureOf(requirements);
  if (!failure) return requirements;
  const errors = requirements.errors.filter((e) => e !== failure);
  const currently_due = requirements.currently_due.filter(
    (f) => f !== failure.field || errors.some((e) => e.field === f),
  );
  return currently_due.length || errors.length ? { currently_due, errors } : null;
}

/** Where the bank account's verification stands, for the home to say (null: never checked). */
export function bankCheckOf(merchant: MerchantRow) {
  const check = merchant.verification.find((c) => c.type === "bank_account");
  return check ? { status: check.status, code: check.code, message: check.message } : null;
}
