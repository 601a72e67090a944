"use server";
import { revalidatePath } from "next/cache";
import { getLocale, getTranslations } from "next-intl/server";

import { refundFromPage } from "@/lib/actions/refund-from-page";
import { requestFromPage, type RequestFromPageResult } from "@/lib/actions/request-from-page";
import { assertFreshSignIn } from "@/lib/auth/fresh-sign-in";
import { asIsvUser } from "@/lib/dashboard/session";
import { updateAccount } from "@/lib/domain/accounts/update-account";
import { verifyCustomDomain } from "@/lib/domain/accounts/verify-custom-domain";
import { createLoginLink } from "@/lib/domain/home/login";
import { updateMerchant } from "@/lib/domain/merchants/update-merchant";
import { createOnboardingLink } from "@/lib/domain/onboarding/create-onboarding-link";
import { createReport } from "@/lib/domain/reports/create-report";
import { refundCeilingFor } from "@/lib/domain/team/members";
import { createWebhook } from "@/lib/domain/webhooks/create-webhook";
import { deleteWebhook } from "@/lib/domain/webhooks/delete-webhook";
import { retryDelivery } from "@/lib/domain/webhooks/retry-delivery";
import { AppError } from "@/lib/errors";
import { issuesToFieldErrors } from "@/lib/errors";
import { intlLocale } from "@/lib/i18n/locales";
import { formatCents } from "@/lib/money";
import { updateAccountSchema } from "@/lib/schemas/account";
import { createReportSchema } from "@/lib/schemas/reports";
import { createWebhookSchema } from "@/lib/schemas/webhook";

import type { PayoutFormResult } from "./home-payouts";
import { attempt, problemsOf } from "./result";
import { scheduleFromForm } from "./schedule-form";

/** An action's input its schema refused, as one line of the problems (the form shows it). */
const invalidInput = (issues: Parameters<typeof issuesToFieldErrors>[0]) => ({
  ok: false as const,
  error: issuesToFieldErrors(issues)
    .map((e) => e.message)
    .join("; "),
});

// Dashboard actions: the same domain functions as the API, for the signed-in ISV user's account.
// Server actions are POSTs that Next checks against the page's origin (CSRF-safe with the
// SameSite=Lax session cookie).

export async function newLinkAction(merchantId: unknown) {
  return asIsvUser("onboarding_links:write", async ({ db, account }) => {
    if (typeof merchantId !== "string" || merchantId.length > 64)
      throw new AppError("parameter_invalid", "merchant id must be a string");
    const { url } = await createOnboardingLink(db, account.id, { merchant_id: merchantId, type: "account_onboarding" });
    revalidatePath(`/dashboard/merchants/${merchantId}`);
    return url;
  });
}

export async function setDeactivatedAction(
  merchantId: unknown,
  deactivated: unknown,
): Promise<{ ok: boolean; message: string }> {
  return asIsvUser("merchants:write", async ({ db, account }) => {
    if (typeof merchantId !== "string" || merchantId.length > 64 || typeof deactivated !== "boolean")
      return { ok: false, message: "Invalid request" };
    const done = await attempt(() => updateMerchant(db, account.id, merchantId, { deactivated }));
    if (!done.ok) return { ok: false, message: done.message };
    revalidatePath(`/dashboard/merchants/${merchantId}`);
    return { ok: true, message: "" };
  });
}

export async function retryDeliveryAction(
  webhookId: unknown,
  deliveryId: unknown,
): Promise<{ ok: boolean; message: string }> {
  return asIsvUser("webhooks:write", async ({ db, account }) => {
    if (
      typeof webhookId !== "string" ||
      typeof deliveryId !== "string" ||
      webhookId.length > 64 ||
      deliveryId.length > 64
    )
      return { ok: false, message: "Invalid request" };
    const done = await attempt(() => retryDelivery(db, account.id, webhookId, deliveryId));
    if (!done.ok) return { ok: false, message: done.message };
    revalidatePath("/dashboard/developers");
    return { ok: true, message: "" };
  });
}

export type SaveResult = { ok: boolean; errors: { param: string; message: string }[] };

export async function saveSettingsAction(patch: unknown): Promise<SaveResult> {
  return asIsvUser("account:write", async ({ db, account, userId, signedInAt, role }) => {
    const parsed = updateAccountSchema.safeParse(patch);
    if (!parsed.success) return { ok: false, errors: issuesToFieldErrors(parsed.error.issues) };
    const done = await attempt(() =>
      updateAccount(db, account.id, parsed.data, { kind: "user", userId, signedInAt, role }),
    );
    if (!done.ok) return { ok: false, errors: problemsOf(done) };
    revalidatePath("/dashboard/settings");
    return { ok: true, errors: [] };
  });
}

/** Looks up the custom domain's TXT record now (the API's POST /v1/account/custom_domain/verify). */
export async function verifyDomainAction(): Promise<{ ok: true } | { ok: false; error: "not_found" | "taken" }> {
  return asIsvUser("account:write", async ({ db, account }) => {
    const done = await attempt(() => verifyCustomDomain(db, account.id));
    if (!done.ok) return { ok: false, error: done.code === "custom_domain_taken" ? "taken" : "not_found" };
    revalidatePath("/dashboard/settings");
    return { ok: true };
  });
}

export async function createWebhookAction(input: unknown) {
  return asIsvUser("webhooks:write", async ({ db, account, signedInAt }) => {
    // A server action is a public endpoint: its input is checked with the API's own schema.
    const parsed = createWebhookSchema.safeParse(input);
    if (!parsed.success) return invalidInput(parsed.error.issues);
    // Where events go is a sensitive change: a sign-in of the last 15 minutes (section 23).
    const done = await attempt(async () => {
      assertFreshSignIn(signedInAt);
      return createWebhook(db, account.id, parsed.data);
    });
    if (!done.ok) return { ok: false as const, error: done.message };
    revalidatePath("/dashboard/developers");
    return { ok: true as const, secret: done.value.secret };
  });
}

export async function deleteWebhookAction(id: unknown) {
  return asIsvUser("webhooks:write", async ({ db, account }) => {
    if (typeof id !== "string" || id.length > 64) return;
    await deleteWebhook(db, account.id, id);
    revalidatePath("/dashboard/developers");
  });
}

/** A refund from the merchant page: the API's own schema and domain function, for this ISV's charges only. */
export async function refundAction(input: unknown) {
  return asIsvUser("refunds:write", async ({ db, account, role }) => {
    // The merchant's page and the charge's page show the refunded amount; support, up to its limit.
    const limit = await refundCeilingFor(db, { kind: "user", accountId: account.id, role });
    const done = await refundFromPage(
      db,
      { isvAccountId: account.id },
      input,
      ["/dashboard/merchants/[id]", "/dashboard/merchants/[id]/charges/[chargeId]"],
      limit,
    );
    if (done.ok || done.code !== "permission_denied" || limit === undefined) return done;
    // The role's limit, in the reader's words.
    const t = await getTranslations("team");
    const amount = formatCents(limit, intlLocale(await getLocale()));
    return { ...done, error: t("refundAboveLimit", { amount }) };
  });
}

/**
 * A payment request from the merchant's dashboard page: an invoice or a scan-to-pay QR code, for
 * this ISV's merchants only (lib/actions/request-from-page.ts).
 */
export async function requestPaymentAction(input: unknown): Promise<RequestFromPageResult> {
  return asIsvUser("payments:write", async ({ db, account }) => {
    return requestFromPage(
      db,
      { isvAccountId: account.id },
      input,
      ["INVOICE", "SCAN_TO_PAY"],
      ["/dashboard/merchants/[id]"],
    );
  });
}

/** Asks for a report (the API's POST /v1/reports, for the signed-in user's account). */
export async function createReportAction(input: unknown) {
  return asIsvUser("reports:read", async ({ db, account }) => {
    const parsed = createReportSchema.safeParse(input);
    if (!parsed.success) return invalidInput(parsed.error.issues);
    const done = await attempt(() => createReport(db, { isvAccountId: account.id }, parsed.data));
    if (!done.ok) return { ok: false as const, error: done.message };
    revalidatePath("/dashboard/reports");
    return { ok: true as const, id: done.value.id };
  });
}

/**
 * "Open this merchant's home": a single-use login link for the ISV's user, as `POST
 * /v1/merchants/{id}/login_links` makes (audited as `login_link.created` by this user; the session it
 * opens is audited as the ISV acting for the merchant). The page opens it in a new tab.
 */
export async function openMerchantHomeAction(
  merchantId: unknown,
): Promise<{ ok: boolean; message: string; url?: string }> {
  return asIsvUser("merchants:write", async ({ db, account }) => {
    if (typeof merchantId !== "string" || merchantId.length > 64) return { ok: false, message: "Invalid request" };
    const made = await attempt(() => createLoginLink(db, account.id, merchantId));
    if (!made.ok) return { ok: false, message: made.message };
    return { ok: true, message: "", url: made.value.url };
  });
}

/** The merchant page's payout schedule form: the ISV's change, by the API's rules (`PATCH /v1/merchants/{id}`). */
export async function merchantScheduleAction(merchantId: string, input: unknown): Promise<PayoutFormResult> {
  return asIsvUser("payouts:write", async ({ db, account }) => {
    const done = await attempt(() =>
      updateMerchant(db, account.id, String(merchantId).slice(0, 64), { payout_schedule: scheduleFromForm(input) }),
    );
    if (!done.ok) return { ok: false, errors: problemsOf(done).map((e) => ({ param: e.param, code: e.code })) };
    revalidatePath(`/dashboard/merchants/${merchantId}`);
    return { ok: true };
  });
}
