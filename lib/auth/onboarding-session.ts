import { eq } from "drizzle-orm";

import { bareHost, isCustomDomain, isServiceHost } from "../branding/hosts";
import { accounts, merchants, onboardingLinks } from "../db/schema";
import { type DbOrTx } from "../db/types";
import { notFound, unauthenticated } from "../errors";
import { firstPartyCookie, frameCookie } from "./cookies";
import { signToken, verifyToken } from "./jwt";

// The merchant's onboarding session (docs/reference.md section 2), in one place: the token it is issued
// as, how it is read (the cookie or a Bearer token), and the check every use of it makes, for the
// API, the wizard's pages and the agreement alike.

export const SESSION_TTL_SECONDS = 30 * 60;
/** However much it is used, a session ends this long after its link was opened (open the link again). */
export const SESSION_MAX_SECONDS = 12 * 60 * 60;
const AUDIENCE = "onboarding";

export type SessionPrincipal = {
  merchantId: string;
  linkId: string;
  accountId: string;
  /** Unix seconds the link was opened. */ startedAt?: number;
};

/**
 * A session token bound to the merchant, the link that opened it, and the ISV. It slides (each use
 * renews it for 30 minutes) but keeps when it started: never past SESSION_MAX_SECONDS from there.
 */
export function issueSessionToken(principal: SessionPrincipal) {
  const startedAt = principal.startedAt ?? Math.floor(Date.now() / 1000);
  const ttl = Math.max(
    0,
    Math.min(SESSION_TTL_SECONDS, startedAt + SESSION_MAX_SECONDS - Math.floor(Date.now() / 1000)),
  );
  return signToken(
    { lnk: principal.linkId, isv: principal.accountId, ses: startedAt },
    principal.merchantId,
    ttl,
    AUDIENCE,
  );
}

/** The session a token names (signature, expiry and audience checked), or null. */
export async function readSessionToken(token: string | undefined): Promise<SessionPrincipal | null> {
  if (!token) return null;
  const claims = await verifyToken(token, AUDIENCE);
  if (!claims || typeof claims.sub !== "string" || typeof claims.lnk !== "string" || typeof claims.isv !== "string")
    return null;
  const startedAt = typeof claims.ses === "number" ? claims.ses : typeof claims.iat === "number" ? claims.iat : 0;
  if (startedAt + SESSION_MAX_SECONDS <= Math.floor(Date.now() / 1000)) return null;
  return { merchantId: claims.sub, linkId: claims.lnk, accountId: claims.isv, startedAt };
}

/**
 * The session cookie's options. Inside an embedded component's frame (a third-party context) it is
 * `SameSite=None; Secure; Partitioned`: kept in the host page's partition, never sent elsewhere.
 */
export function sessionCookieOptions(embedded = false) {
  return embedded ? frameCookie(SESSION_TTL_SECONDS) : firstPartyCookie(SESSION_TTL_SECONDS);
}

/**
 * Every use of a session checks it here: the link that opened it is still the merchant's current
 * one (a newer link ends older sessions), the merchant is the ISV's, and, when the request's host
 * is given, it is this service's or the ISV's own custom domain. Otherwise 401.
 */
export async function checkSession(
  db: DbOrTx,
  principal: SessionPrincipal,
  options: { forUpdate?: boolean; host?: string; allowSuperseded?: boolean } = {},
) {
  // The link, its merchant (locked when the caller changes it) and the ISV in one round trip.
  const query = db
    .select({ link: onboardingLinks, merchant: merchants, isv: accounts })
    .from(onboardingLinks)
    .innerJoin(merchants, eq(merchants.id, onboardingLinks.merchantId))
    .innerJoin(accounts, eq(accounts.id, onboardingLinks.isvAccountId))
    .where(eq(onboardingLinks.id, principal.linkId));
  const [row] = options.forUpdate ? await query.for("update", { of: merchants }) : await query;
  const link = row?.link;
  if (
    !row ||
    !link ||
    (link.supersededAt && !options.allowSuperseded) ||
    link.merchantId !== principal.merchantId ||
    link.isvAccountId !== principal.accountId
  ) {
    throw unauthenticated("This onboarding session has ended: a newer link was created. Open the latest link.");
  }
  const { merchant, isv } = row;
  if (merchant.isvAccountId !== principal.accountId) throw notFound("merchant", principal.merchantId, "merchant_id");
  // On an ISV's custom domain only that ISV's sessions work (the pages never answer on unknown hosts).
  if (options.host !== undefined && !isServiceHost(options.host)) {
    const host = bareHost(options.host);
    const own = isv.customDomainVerifiedAt ? isv.customDomain : null;
    if (host !== own && (await isCustomDomain(db, host))) {
      throw unauthenticated("This onboarding session belongs to another site");
    }
  }
  return { link, merchant, isv };
}
export type CheckedSession = Awaited<ReturnType<typeof checkSession>>;
