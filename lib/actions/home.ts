"use server";
import { cookies, headers } from "next/headers";
import { redirect } from "next/navigation";
import { getLocale } from "next-intl/server";

import { refundFromPage } from "@/lib/actions/refund-from-page";
import { checkSignInAttempts, CLIENT_ADDRESS_HEADER } from "@/lib/auth/sign-in-limiter";
import { isServiceHost } from "@/lib/branding/hosts";
import { getDatabase } from "@/lib/db/client";
import { isvForHost } from "@/lib/domain/accounts/isv-for-host";
import { emailLoginLinks, HOME_COOKIE } from "@/lib/domain/home/login";
import { AppError } from "@/lib/errors";
import { requireMerchant } from "@/lib/home/session";
import { isLocale } from "@/lib/i18n/locales";
import { log } from "@/lib/log";

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

export async function homeSignOutAction() {
  (await cookies()).delete(HOME_COOKIE);
  redirect("/home/sign-in");
}

/** A refund from the merchant's home: the API's schema and domain function, for this merchant's charges only. */
export async function homeRefundAction(input: unknown) {
  const { db, merchant } = await requireMerchant();
  return refundFromPage(db, { isvAccountId: merchant.isvAccountId, merchantId: merchant.id }, input, [
    "/home",
    "/home/payments/[chargeId]",
  ]);
}
