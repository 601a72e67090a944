import { eq } from "drizzle-orm";

import { asActor } from "../../audit/actor";
import { isFreshSession, revokeHomeSessions } from "../../auth/home-session";
import { signToken, verifyToken } from "../../auth/jwt";
import { hostedBaseUrl } from "../../branding/hosts";
import { clock } from "../../clock";
import { isEncrypted } from "../../crypto/field-encryption";
import { accounts, type MerchantRow, merchants, type MerchantSessionRow } from "../../db/schema";
import { type Db, type DbOrTx } from "../../db/types";
import { AppError, type FieldError, invalidFields, issuesToFieldErrors } from "../../errors";
import { randomBase62 } from "../../ids";
import { enqueueJob } from "../../jobs/job-types";
import { businessName, merchantLocale } from "../../merchants/facts";
import { queueEmail } from "../../notifications/send-email";
import { confirmContactEmail } from "../../notifications/templates";
import { accountConfirmationProblem, routingNumberProblem } from "../../onboarding/cross-field";
import { businessDaysAfter } from "../../payouts/business-days";
import { partialApplicationSchema } from "../../schemas/merchant";
import { getAccount } from "../accounts/get-account";
import { brandOf, newBankAccountHoldDaysOf } from "../accounts/isv-facts";
import { mergeApplicationChange } from "../merchants/change-application";
import { recordMerchantEvent } from "../merchants/merchant-event";
import { withoutErrors } from "../merchants/requirements";
import { writeMerchant } from "../merchants/write-merchant";
import { reconsiderPayouts } from "../payouts/reconsider-payouts";
import { payoutSettingsOf, setPayoutSettings } from "../payouts/settings";
import { startChecks } from "../verification/start-checks";
import { queueChangeNotices } from "./change-notices";

export type ContactChange = { name: string; email: string; business_phone?: string | null };

/** The home session making a change: a bank account or contact change needs a recent sign-in (a step-up). */
export type ChangingSession = Pick<MerchantSessionRow, "id" | "createdAt" | "via"> | null;

const CONFIRM_AUDIENCE = "contact_confirm";
export const CONTACT_CONFIRM_TTL_SECONDS = 24 * 3600;

/**
 * Refuses a change of the bank account, the contact or the merchant's own API key unless the session
 * began within STEP_UP_SECONDS from the contact's e-mail (a home session of the merchant: an embedded
 * component never changes these), and while payouts are frozen after a reported change.
 */
export async function requireStepUp(tx: DbOrTx, merchant: MerchantRow, session: ChangingSession) {
  if (!session || !isFreshSession(session))
    throw new AppError(
      "reauthentication_required",
      "Sign in again to change the bank account, the contact or the API key: a new sign-in link is sent to the contact e-mail",
    );
  if ((await payoutSettingsOf(tx, merchant.id)).frozenAt)
    throw new AppError(
      "payouts_frozen",
      "A change was reported as not the merchant's: the bank account and contact are changed by support until it is cleared",
    );
}

/**
 * The home's settings: the approved merchant's contact (name, e-mail: where sign-in links and
 * notices go) and its business phone. The rest of the application is closed once approved; these
 * are not in the signed agreement's text, so the signature stands. Validated by the application's
 * own rules; writes `merchant.updated` in the same transaction. A new e-mail is not taken at once:
 * a link sent to it confirms it (until then sign-in links go to the old one), and the previous
 * contact and owner one are told, with a "this wasn't me" link. The merchant's other sessions end.
 */
export async function changeContact(db: Db, merchantId: string, change: ContactChange, session: ChangingSession) {
  return db.transaction(async (tx) => {
    const [merchant] = await tx.select().from(merchants).where(eq(merchants.id, merchantId)).for("update");
    if (!merchant || merchant.status !== "APPROVED")
      throw new AppError("merchant_not_approved", "The contact is changed here once the merchant is approved");
    await requireStepUp(tx, merchant, session);
    const current = (merchant.application.main_contact_person ?? {}) as { email?: string };
    const newEmail =
      change.email.trim().toLowerCase() !== (current.email ?? "").trim().toLowerCase() ? change.email.trim() : null;
    const patch: Record<string, unknown> = { main_contact_person: { name: change.name, email: change.email } };
    if (change.business_phone) patch.business_phone = change.business_phone;
    // The application's own schema (the API's and the wizard's), then its merge.
    const parsed = partialApplicationSchema.safeParse(patch);
    if (!parsed.success) throw invalidFields(issuesToFieldErrors(parsed.error.issues, ["merchant"], patch));
    const checked = {
      ...parsed.data,
      // The e-mail stays as it is until the new address confirms it.
      main_contact_person: { ...parsed.data.main_contact_person, email: current.email ?? change.email },
      ...(change.business_phone === null ? { business_phone: null } : {}),
    };
    const { application, errors } = mergeApplicationChange(merchant.application, { merchant: checked }, "merchant");
    if (errors.length) throw invalidFields(errors);
    const pendingContactEmail = newEmail
      ? {
          email: newEmail,
          nonce: randomBase62(22),
          expires_at: new Date(clock.ms() + CONTACT_CONFIRM_TTL_SECONDS * 1000).toISOString(),
        }
      : merchant.pendingContactEmail;
    const updated = await writeMerchant(tx, merchant.id, { application, pendingContactEmail, updatedAt: clock.now() });
    const isv = await getAccount(tx, merchant.isvAccountId);
    await recordMerchantEvent(tx, "merchant.updated", updated, {
      isv: isv,
      fields: [
        "merchant.main_contact_person",
        ...(change.business_phone !== undefined ? ["merchant.business_phone"] : []),
      ],
    });
    if (newEmail && pendingContactEmail) {
      await queueChangeNotices(tx, isv, merchant, { kind: "contact_email", email: newEmail });
      const token = await signToken(
        { kind: "contact_confirm", merchant_id: merchant.id, nonce: pendingContactEmail.nonce },
        merchant.id,
        CONTACT_CONFIRM_TTL_SECONDS,
        CONFIRM_AUDIENCE,
      );
      const locale = merchantLocale(merchant);
      await queueEmail(tx, {
        accountId: merchant.isvAccountId,
        merchantId: merchant.id,
        kind: "contact_email_confirm",
        to: newEmail,
        locale,
        ...confirmContactEmail({
          brand: brandOf(isv),
          locale,
          business: businessName(merchant) || merchant.id,
          url: `${hostedBaseUrl(isv)}/home/confirm-email/${token}`,
        }),
      });
      await revokeHomeSessions(tx, merchant.id, "contact_changed", { except: session?.id });
    }
    return updated;
  });
}

/** What a confirmation link would confirm (its address and the merchant's ISV), or null when it no longer can. */
export async function pendingContactOf(db: DbOrTx, token: string) {
  const found = await confirmationOf(db, token);
  return found && { email: found.pending.email, isvAccountId: found.merchant.isvAccountId };
}

/**
 * The merchant and the contact e-mail a confirmation link confirms, while the link still may: its
 * signature, and the change it names still waiting (not replaced by a later one, not expired).
 * `forUpdate`: the merchant's row locked, for the confirmation itself.
 */
async function confirmationOf(db: DbOrTx, token: string, forUpdate = false) {
  const claims = await verifyToken(token, CONFIRM_AUDIENCE);
  if (!claims || claims.kind !== "contact_confirm" || typeof claims.merchant_id !== "string") return null;
  const query = db.select().from(merchants).where(eq(merchants.id, claims.merchant_id));
  const [merchant] = forUpdate ? await query.for("update") : await query;
  const pending = merchant?.pendingContactEmail;
  if (!merchant || !pending || pending.nonce !== claims.nonce || Date.parse(pending.expires_at) <= clock.ms())
    return null;
  return { merchant, pending };
}

/**
 * The link sent to a new contact address, used: the address becomes the contact's e-mail (sign-in
 * links go there from now on; the merchant's other sessions ended when the change was asked). Null when the link is bad, expired,
 * or a later change (or a "this wasn't me") replaced it.
 */
export async function confirmContactEmailChange(db: Db, token: string) {
  return db.transaction(async (tx) => {
    const found = await confirmationOf(tx, token, true);
    if (!found) return null;
    const { merchant, pending } = found;
    const contact = (merchant.application.main_contact_person ?? {}) as Record<string, unknown>;
    const application = { ...merchant.application, main_contact_person: { ...contact, email: pending.email } };
    const updated = await writeMerchant(tx, merchant.id, {
      application,
      pendingContactEmail: null,
      updatedAt: clock.now(),
    });
    const isv = await getAccount(tx, merchant.isvAccountId);
    await asActor({ type: "merchant", id: merchant.id, via: "home" }, () =>
      recordMerchantEvent(tx, "merchant.updated", updated, { isv, fields: ["merchant.main_contact_person.email"] }),
    );
    return updated;
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
 * (routing number, both account numbers alike), encrypted as every account number is, after a
 * recent sign-in. Its verification check runs again at once (the others keep their results); no
 * payout reaches it until the check says `verified` (a failed one holds payouts for an operator)
 * and the ISV's `new_bank_account_hold_days` business days have passed. The previous contact and
 * owner one are e-mailed with a "this wasn't me" link; the merchant's other sessions end. Writes
 * `merchant.bank_account_changed` and `merchant.verification_updated` in the same transaction.
 */
export async function changeBankAccount(
  db: Db,
  merchantId: string,
  change: BankAccountChange,
  session: ChangingSession,
) {
  return db.transaction(async (tx) => {
    const [merchant] = await tx.select().from(merchants).where(eq(merchants.id, merchantId)).for("update");
    if (!merchant || merchant.status !== "APPROVED")
      throw new AppError("merchant_not_approved", "The bank account is changed here once the merchant is approved");
    await requireStepUp(tx, merchant, session);
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
    const { application, errors } = mergeApplicationChange(merchant.application, { merchant: parsed.data }, "merchant");
    if (errors.length) throw invalidFields(errors);
    // A payout refused by the old account asked for this one: asked no more (payouts still wait
    // for the new account's check).
    const requirements = withoutErrors(merchant.requirements, (e) => e.code === "payout_failed");
    const isv = await getAccount(tx, merchant.isvAccountId);
    // No payout reaches the new account until its check verifies it, nor before its cooling-off ends.
    const now = clock.now();
    const bankAccountHoldUntil = businessDaysAfter(now, newBankAccountHoldDaysOf(isv));
    await setPayoutSettings(tx, { id: merchant.id, recipient: "merchant" }, { bankAccountHoldUntil });
    const written = await writeMerchant(tx, merchant.id, { application, requirements, updatedAt: now });
    await recordMerchantEvent(tx, "merchant.bank_account_changed", written, { isv, fields: ["merchant.bank_account"] });
    await queueChangeNotices(tx, isv, merchant, { kind: "bank_account", last4: change.account_number.slice(-4) });
    await revokeHomeSessions(tx, merchant.id, "bank_account_changed", { except: session?.id });
    const checked = await startChecks(tx, written);
    await reconsiderPayouts(tx, checked);
    // The cooling-off's end looks again (a check verified before it leaves the payouts held till then).
    await enqueueJob(
      tx,
      "payout_reconsider",
      { merchant_id: merchant.id },
      { runAt: bankAccountHoldUntil, key: `payout_reconsider_${merchant.id}_${bankAccountHoldUntil.getTime()}` },
    );
    return checked;
  });
}

/**
 * When a verified new bank account starts receiving payouts, while that is still ahead (its
 * cooling-off: docs/reference.md section 15); null otherwise.
 */
export function bankHoldEndsAt(
  merchant: MerchantRow,
  settings: { bankAccountHoldUntil: Date | null },
  now = clock.now(),
): Date | null {
  const until = settings.bankAccountHoldUntil;
  return until && until > now && bankCheckOf(merchant)?.status === "verified" ? until : null;
}

/** Where the bank account's verification stands, for the home to say (null: never checked). */
export function bankCheckOf(merchant: MerchantRow) {
  const check = merchant.verification.find((c) => c.type === "bank_account");
  return check ? { status: check.status, code: check.code, message: check.message } : null;
}
