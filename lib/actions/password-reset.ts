"use server";
import { headers } from "next/headers";
import { redirect } from "next/navigation";
import { getLocale } from "next-intl/server";

import { CLIENT_ADDRESS_HEADER } from "@/lib/auth/sign-in-limiter";
import { getDatabase } from "@/lib/db/client";
import { MIN_PASSWORD_LENGTH, requestPasswordReset, resetPassword } from "@/lib/domain/accounts/password-reset";
import { AppError } from "@/lib/errors";
import { type Locale } from "@/lib/i18n/locales";

export type ForgotState = { sent: boolean; email: string; error?: "rate_limited" };
export type ResetState = { error: "mismatch" | "short" | "invalid" | "rate_limited" | null };

/** The socket's address, put there by server.ts (a client cannot choose it). */
const clientAddress = async () => (await headers()).get(CLIENT_ADDRESS_HEADER) ?? "unknown";
const rateLimited = (error: unknown) => error instanceof AppError && error.code === "too_many_sign_in_attempts";

/** "Forgot your password?": the same answer whether or not the e-mail has an account. */
export async function forgotPasswordAction(_prev: ForgotState, form: FormData): Promise<ForgotState> {
  const email = String(form.get("email") ?? "")
    .trim()
    .slice(0, 254);
  if (!email) return { sent: false, email };
  const { db } = await getDatabase();
  try {
    await requestPasswordReset(db, email, (await getLocale()) as Locale, await clientAddress());
  } catch (error) {
    if (rateLimited(error)) return { sent: false, email, error: "rate_limited" };
    throw error;
  }
  return { sent: true, email };
}

/** A new password from a reset link; then sign in again (every earlier session has ended). */
export async function resetPasswordAction(_prev: ResetState, form: FormData): Promise<ResetState> {
  const token = String(form.get("token") ?? "");
  const password = String(form.get("password") ?? "");
  if (password !== String(form.get("confirm") ?? "")) return { error: "mismatch" };
  if (password.length < MIN_PASSWORD_LENGTH) return { error: "short" };
  try {
    const { db } = await getDatabase();
    await resetPassword(db, token, password, await clientAddress());
  } catch (error) {
    if (rateLimited(error)) return { error: "rate_limited" };
    if (error instanceof AppError && error.isClientError) return { error: "invalid" };
    throw error;
  }
  redirect("/sign-in?reset=1");
}
