"use server";
import { revalidatePath } from "next/cache";
import { cookies, headers } from "next/headers";
import { redirect } from "next/navigation";
import { getLocale } from "next-intl/server";

import { refundFromPage } from "@/lib/actions/refund-from-page";
import { requestFromPage, type RequestFromPageResult } from "@/lib/actions/request-from-page";
import { HOME_COOKIE } from "@/lib/auth/cookies";
import { endHomeSession, homeSessionOf } from "@/lib/auth/home-session";
import { checkSignInAttempts, CLIENT_ADDRESS_HEADER } from "@/lib/auth/sign-in-limiter";
import { isServiceHost } from "@/lib/branding/hosts";
import { getDatabase } from "@/lib/db/client";
import { isvForHost } from "@/lib/domain/accounts/isv-for-host";
import { acceptDispute } from "@/lib/domain/disputes/accept-dispute";
import { saveEvidence } from "@/lib/domain/disputes/save-evidence";
import { submitDispute } from "@/lib/domain/disputes/submit-dispute";
import { rotateKeyFromHome } from "@/lib/domain/home/api-key";
import { reportChange } from "@/lib/domain/home/change-notices";
import { emailLoginLinks, emailStepUpLink } from "@/lib/domain/home/login";
import { changeBankAccount, changeContact, confirmContactEmailChange } from "@/lib/domain/home/settings";
import { AppError, issuesToFieldErrors } from "@/lib/errors";
import { asMerchant } from "@/lib/home/session";
import { isLocale } from "@/lib/i18n/locales";
import { log } from "@/lib/log";
import { emptyEvidence, saveEvidenceSchema } from "@/lib/schemas/disputes";

import { attempt, problemsOf } from "./result";

export type HomeSignInState = { state: "idle" | "sent" | "invalid" | "rate_limited"; email: string };

const emailPattern = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/**
 * The home's sign-in page: e-mails a single-use link to the merchants whose contact has this
 * address (only the ISV's own on its custom domain). The answer is the same whether or not the
 * address is known; attempts are limited per address and per address and client.
 */
export async function homeSignInAction(_prev: HomeSignInState, form: FormData): Promise<HomeSignInState> {
  const email = String(form.get("email") ?? "").trim();
  if (!emailPattern.test(email) || email.length > 254) return { state: "invalid", email };
  const request = await headers();
  try {
    await checkSignInAttempts(`home:${email}`, request.get(CLIENT_ADDRESS_HEADER) ?? "unknown");
  } catch (error) {
    if (error instanceof AppError && error.code === "too_many_sign_in_attempts")
      return { state: "rate_limited", email };
    throw error;
  }
  const { db } = await getDatabase();
  const host = request.get("host") ?? "";
  let isvAccountId: string | undefined;
  if (!isServiceHost(host)) {
    const isv = await isvForHost(db, host);
    // An unknown host never reaches here (the proxy answers 404); be safe anyway.
    if (!isv) return { state: "sent", email };
    isvAccountId = isv.id;
  }
  const locale = await getLocale();
  // Not awaited: the answer takes the same time whether or not the address is known (the lookup and
  // the e-mail happen after it); a failure is logged, never shown.
  void emailLoginLinks(db, email, { isvAccountId, locale: isLocale(locale) ? locale : "en" }).catch((error: unknown) =>
    log.error({ err: error }, "home sign-in e-mail could not be queued"),
  );
  return { state: "sent", email };
}

/** Sign-out ends this session for good (its token is refused from now on), not only its cookie. */
export async function homeSignOutAction() {
  const jar = await cookies();
  const { db } = await getDatabase();
  const home = await homeSessionOf(db, jar.get(HOME_COOKIE)?.value);
  if (home) await endHomeSession(db, home.session.id);
  jar.delete(HOME_COOKIE);
  redirect("/home/sign-in");
}

/**
 * The step-up before a bank account or contact change: a new single-use sign-in link to the
 * merchant's contact e-mail (the session is older than STEP_UP_SECONDS). Never inside a frame.
 */
export async function homeStepUpAction(): Promise<{ sent: boolean }> {
  return asMerchant(async ({ db, merchant, frame }) => {
    if (frame) return { sent: false };
    const locale = await getLocale();
    return { sent: (await emailStepUpLink(db, merchant, isLocale(locale) ? locale : "en")) > 0 };
  });
}

/** A refund from the merchant's home: the API's schema and domain function, for this merchant's charges only. */
export async function homeRefundAction(input: unknown) {
  return asMerchant(
    async ({ db, scope }) => {
      return refundFromPage(db, scope, input, ["/home", "/home/payments/[chargeId]"]);
    },
    { components: ["payments"], feature: "refunds" },
  );
}

/** A payment asked from the home's "Take a payment": a card typed in, an invoice or a QR code, for this merchant only. */
export async function homeRequestPaymentAction(input: unknown): Promise<RequestFromPageResult> {
  return asMerchant(async ({ db, merchant, scope }) => {
    const raw = (typeof input === "object" && input ? input : {}) as Record<string, unknown>;
    // The home takes payments for its own merchant whatever id the page sent.
    return requestFromPage(
      db,
      scope,
      { ...raw, merchant_id: merchant.id },
      ["MANUAL", "INVOICE", "SCAN_TO_PAY"],
      ["/home/take-payment"],
    );
  });
}

export type HomeSettingsResult =
  { ok: true; clear?: boolean } | { ok: false; errors: { param: string; code: string; message: string }[] };

/** A settings change's answer: done, or each problem of the application's rules by its field. */
async function settingsChange(change: () => Promise<unknown>, clear = false): Promise<HomeSettingsResult> {
  const done = await attempt(change);
  if (!done.ok)
    return {
      ok: false,
      // A refusal without a list is the form's own message (param ""), whatever field it names.
      errors: done.errors.length ? done.errors : [{ param: "", code: done.code, message: done.message }],
    };
  revalidatePath("/home/settings");
  return { ok: true, clear };
}

const textOf = (raw: Record<string, unknown>, key: string) =>
  typeof raw[key] === "string" ? raw[key].trim().slice(0, 300) : "";
const record = (input: unknown) => (typeof input === "object" && input ? input : {}) as Record<string, unknown>;

/** The home's settings: the contact's name and e-mail and the business phone, by the application's own rules. */
export async function homeContactAction(input: unknown): Promise<HomeSettingsResult> {
  return asMerchant(async ({ db, merchant, session }) => {
    const raw = record(input);
    return settingsChange(() =>
      changeContact(
        db,
        merchant.id,
        {
          name: textOf(raw, "name"),
          email: textOf(raw, "email"),
          business_phone: textOf(raw, "business_phone") || null,
        },
        session,
      ),
    );
  });
}

/** The home's settings: a new bank account, verified again (lib/domain/home/settings.ts). The form empties once saved. */
export async function homeBankAccountAction(input: unknown): Promise<HomeSettingsResult> {
  return asMerchant(async ({ db, merchant, session }) => {
    const raw = record(input);
    return settingsChange(
      () =>
        changeBankAccount(
          db,
          merchant.id,
          {
            bank_name: textOf(raw, "bank_name"),
            routing_number: textOf(raw, "routing_number"),
            account_holder_name: textOf(raw, "account_holder_name"),
            account_number: textOf(raw, "account_number"),
            account_number_confirm: textOf(raw, "account_number_confirm"),
          },
          session,
        ),
      true,
    );
  });
}

/**
 * The merchant's own secret key (its API access to its own payments), replaced and shown once; only
 * after a recent sign-in from the contact's e-mail (lib/domain/home/api-key.ts). A refusal is the
 * answer's `error` (the page offers the sign-in again).
 */
export async function homeRotateKeyAction(): Promise<string | { error: string }> {
  return asMerchant(async ({ db, merchant, session }) => {
    const done = await attempt(() => rotateKeyFromHome(db, merchant.id, session));
    return done.ok ? done.value.secret_key : { error: done.message };
  });
}

export type HomeDisputeResult =
  | { ok: true; dispute: { status: string; evidence: Record<string, string | null> } }
  | { ok: false; errors: { param: string; code: string; message: string }[] };

/** A dispute change's answer: the dispute as saved, or what was refused (the API's error, by field). */
async function disputeChange(change: () => ReturnType<typeof saveEvidence>): Promise<HomeDisputeResult> {
  const done = await attempt(change);
  if (!done.ok) return { ok: false, errors: problemsOf(done) };
  revalidatePath("/home/disputes");
  const row = done.value;
  return { ok: true, dispute: { status: row.status, evidence: { ...emptyEvidence(), ...row.evidence } } };
}

/** The home's dispute form, as the merchant types: the API's schema and domain function, for this merchant's disputes only. */
export async function homeSaveEvidenceAction(disputeId: string, input: unknown): Promise<HomeDisputeResult> {
  return asMerchant(
    async ({ db, scope }) => {
      const parsed = saveEvidenceSchema.safeParse({ evidence: input });
      if (!parsed.success) return { ok: false, errors: issuesToFieldErrors(parsed.error.issues) };
      return disputeChange(() => saveEvidence(db, scope, String(disputeId), parsed.data));
    },
    { components: ["disputes", "payments"], feature: "dispute_management" },
  );
}

/** The home's "Submit evidence" (after its confirmation): once, like POST /v1/disputes/{id}/submit. */
export async function homeSubmitDisputeAction(disputeId: string): Promise<HomeDisputeResult> {
  return asMerchant(
    async ({ db, scope }) => {
      return disputeChange(() => submitDispute(db, scope, String(disputeId)));
    },
    { components: ["disputes", "payments"], feature: "dispute_management" },
  );
}

/** The home's "Accept the dispute" (after its confirmation): lost, like POST /v1/disputes/{id}/accept. */
export async function homeAcceptDisputeAction(disputeId: string): Promise<HomeDisputeResult> {
  return asMerchant(
    async ({ db, scope }) => {
      return disputeChange(() => acceptDispute(db, scope, String(disputeId)));
    },
    { components: ["disputes", "payments"], feature: "dispute_management" },
  );
}

/** A change notice's "this wasn't me" (no session: the link in the e-mail is the credential). */
export async function reportChangeAction(token: string) {
  const { db } = await getDatabase();
  const address = (await headers()).get(CLIENT_ADDRESS_HEADER);
  const frozen = await reportChange(db, token, address);
  redirect(`/home/report/${token}?${frozen ? "done=1" : "invalid=1"}`);
}

/** The link sent to a new contact address, confirmed by its button (an e-mail scanner's GET changes nothing). */
export async function confirmContactEmailAction(token: string) {
  const { db } = await getDatabase();
  const confirmed = await confirmContactEmailChange(db, token);
  redirect(`/home/confirm-email/${token}?${confirmed ? "done=1" : "invalid=1"}`);
}
