import "server-only";

import { cookies, headers } from "next/headers";

import { ONBOARDING_COOKIE } from "@/lib/auth/cookies";
import { readSessionToken } from "@/lib/auth/onboarding-session";
import { getDatabase } from "@/lib/db/client";
import { continueInPortal } from "@/lib/domain/onboarding/continue-in-portal";
import { completionView, getSession } from "@/lib/domain/onboarding/session";
import { AppError } from "@/lib/errors";

/** The onboarding session behind the cookie, checked like the API checks it, or null (no cookie, expired, superseded, wrong host). */
export async function loadWizardSession() {
  const principal = await readSessionToken((await cookies()).get(ONBOARDING_COOKIE)?.value);
  if (!principal) return null;
  const { db } = await getDatabase();
  const use = { ...principal, host: (await headers()).get("host") ?? "" };
  try {
    return { principal: use, session: await getSession(db, use) };
  } catch (error) {
    if (error instanceof AppError && (error.type === "authentication_error" || error.type === "not_found_error"))
      return null;
    throw error;
  }
}
export type WizardSession = NonNullable<Awaited<ReturnType<typeof loadWizardSession>>>["session"];

/** The completion page's view (lib/domain/onboarding/session.ts completionView), or null without a signed session. */
export async function loadCompletion() {
  const principal = await readSessionToken((await cookies()).get(ONBOARDING_COOKIE)?.value);
  if (!principal) return null;
  const { db } = await getDatabase();
  try {
    return await completionView(db, { ...principal, host: (await headers()).get("host") ?? "" });
  } catch (error) {
    if (error instanceof AppError && (error.type === "authentication_error" || error.type === "not_found_error"))
      return null;
    throw error;
  }
}

/** "Give them now" on the completion page: the session moved into the portal (continueInPortal), or null. */
export async function continueSessionInPortal() {
  const principal = await readSessionToken((await cookies()).get(ONBOARDING_COOKIE)?.value);
  if (!principal) return null;
  const { db } = await getDatabase();
  try {
    return await continueInPortal(db, { ...principal, host: (await headers()).get("host") ?? "" });
  } catch (error) {
    if (error instanceof AppError && (error.type === "authentication_error" || error.type === "not_found_error"))
      return null;
    throw error;
  }
}
