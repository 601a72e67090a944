import "server-only";
import { cookies, headers } from "next/headers";
import { isServiceHost } from "../branding/hosts";
import { getDatabase } from "../db/client";
import { verifyToken } from "../auth/jwt";
import { getSession, type SessionPrincipal } from "../domain/onboarding/session";
import { AppError } from "../errors";

/** The onboarding session behind the cookie, or null (no cookie, expired, or superseded). */
export async function loadWizardSession() {
  const token = (await cookies()).get("onboarding_session")?.value;
  if (!token) return null;
  const claims = await verifyToken(token, "onboarding");
  if (!claims || typeof claims.sub !== "string" || typeof claims.lnk !== "string" || typeof claims.isv !== "string") return null;
  const principal: SessionPrincipal = { merchantId: claims.sub, linkId: claims.lnk, accountId: claims.isv };
  const { db } = await getDatabase();
  try {
    const session = await getSession(db, principal);
    // On a custom domain only that ISV's sessions open; the service's host serves every ISV.
    const host = (await headers()).get("host") ?? "";
    if (!isServiceHost(host) && host.toLowerCase().replace(/:\d+$/, "") !== session.branding?.custom_domain) return null;
    return { principal, session };
  } catch (error) {
    if (error instanceof AppError && (error.type === "authentication_error" || error.type === "not_found_error")) return null;
    throw error;
  }
}
export type WizardSession = NonNullable<Awaited<ReturnType<typeof loadWizardSession>>>["session"];
