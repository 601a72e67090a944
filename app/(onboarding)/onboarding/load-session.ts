import "server-only";

import { cookies, headers } from "next/headers";

import { ONBOARDING_COOKIE } from "@/lib/auth/cookies";
import { readSessionToken } from "@/lib/auth/onboarding-session";
import { getDatabase } from "@/lib/db/client";
import { type Db } from "@/lib/db/types";
import { continueInPortal } from "@/lib/domain/onboarding/continue-in-portal";
import { completionView, getSession, type SessionUse } from "@/lib/domain/onboarding/session";
import { AppError } from "@/lib/errors";

/**
 * `work` on the onboarding session behind the cookie, checked like the API checks it (the request's
 * host included), or null when there is none: no cookie, or a session that has ended (expired,
 * superseded, another host's) or whose merchant is gone. Any other error is thrown.
 */
async function withSession<T>(work: (db: Db, use: SessionUse) => Promise<T>): Promise<T | null> {
  const principal = await readSessionToken((await cookies()).get(ONBOARDING_COOKIE)?.value);
  if (!principal) return null;
  const { db } = await getDatabase();
  try {
    return await work(db, { ...principal, host: (await headers()).get("host") ?? "" });
  } catch (error) {
    if (error instanceof AppError && (error.type === "authentication_error" || error.type === "not_found_error"))
      return null;
    throw error;
  }
}

/** The onboarding session behind the cookie and who uses it, or null (no cookie, expired, superseded, wrong host). */
export const loadWizardSession = () =>
  withSession(async (db, use) => ({ principal: use, session: await getSession(db, use) }));
export type WizardSession = NonNullable<Awaited<ReturnType<typeof loadWizardSession>>>["session"];

/** The completion page's view (lib/domain/onboarding/session.ts completionView), or null without a signed session. */
export const loadCompletion = () => withSession(completionView);

/** "Give them now" on the completion page: the session moved into the portal (continueInPortal), or null. */
export const continueSessionInPortal = () => withSession(continueInPortal);
