import { and, desc, eq, gt, isNull, sql } from "drizzle-orm";

import { asActor } from "../../audit/actor";
import { homeSessionOf, revokeHomeMadeKeys, revokeHomeSessions, startHomeSession } from "../../auth/home-session";
import { digestSecret } from "../../auth/secrets";
import { hostedBaseUrl, servesIsvPages } from "../../branding/hosts";
import { clock } from "../../clock";
import { merchantLoginTokens, type MerchantRow, merchants } from "../../db/schema";
import { type Db, type DbOrTx } from "../../db/types";
import { invalidState } from "../../errors";
import type { Locale } from "../../i18n/locales";
import { createId, randomBase62 } from "../../ids";
import { queueEmail } from "../../notifications/send-email";
import { homeSignIn } from "../../notifications/templates";
import { getAccount } from "../accounts/get-account";
import { brandOf } from "../accounts/isv-facts";
import { recordAudit } from "../audit/record-audit";
import { findMerchant } from "../merchants/find-merchant";

// The merchant's home (docs/reference.md section 15): a single-use sign-in link, made by the ISV or
// e-mailed from the home's sign-in page, opens a 12-hour session of that merchant alone.

export const LOGIN_LINK_TTL_SECONDS = 5 * 60;

/** In the caller's transaction: a new single-use link for an approved merchant. */
export async function insertLoginLink(tx: DbOrTx, merchant: MerchantRow, via: "isv" | "email") {
  if (merchant.status !== "APPROVED")
    throw invalidState(
      `The merchant's home opens once it is approved (lead_onboarding_status is ${merchant.status}): send an onboarding link instead`,
    );
  const isv = await getAccount(tx, merchant.isvAccountId);
  const token = randomBase62(43);
  const expiresAt = new Date(clock.ms() + LOGIN_LINK_TTL_SECONDS * 1000);
  await tx.insert(merchantLoginTokens).values({
    id: createId("mll"),
    isvAccountId: merchant.isvAccountId,
    merchantId: merchant.id,
    tokenDigest: digestSecret(token),
    via,
    expiresAt,
  });
  return {
    object: "login_link" as const,
    url: `${hostedBaseUrl(isv)}/home/login/${token}`,
    expires_at: expiresAt.toISOString(),
  };
}

/** POST /v1/merchants/{id}/login_links: the ISV's "Open your payments" button (another ISV's merchant: 404). */
export async function createLoginLink(db: Db, isvAccountId: string, merchantId: string) {
  return db.transaction(async (tx) => {
    const link = await insertLoginLink(tx, await findMerchant(tx, isvAccountId, merchantId), "isv");
    await recordAudit(tx, { accountId: isvAccountId, action: "login_link.created", resourceId: merchantId });
    return link;
  });
}

/**
 * Uses a link once: a new session of its merchant, or null when the link is unknown, used,
 * expired, or its merchant can no longer sign in (deactivated merchants keep their home: they read
 * their history). Two clicks racing: one wins (a conditional update). Audited as a sign-in: by the
 * ISV acting for the merchant (its link), or by the merchant (an e-mailed link).
 */
export async function redeemLoginLink(
  db: Db,
  token: string,
  clientAddress: string | null = null,
  /** The host the link was opened on: the service's, or the merchant's own ISV's verified domain (else unused, null). */
  host: string | null = null,
): Promise<{ session: string; merchantId: string } | null> {
  return db.transaction(async (tx) => {
    const now = clock.now();
    if (host !== null) {
      const [link] = await tx
        .select({ isvAccountId: merchantLoginTokens.isvAccountId })
        .from(merchantLoginTokens)
        .where(eq(merchantLoginTokens.tokenDigest, digestSecret(token)));
      if (!link || !servesIsvPages(host, await getAccount(tx, link.isvAccountId))) return null;
    }
    const [used] = await tx
      .update(merchantLoginTokens)
      .set({ usedAt: now })
      .where(
        and(
          eq(merchantLoginTokens.tokenDigest, digestSecret(token)),
          isNull(merchantLoginTokens.usedAt),
          gt(merchantLoginTokens.expiresAt, now),
        ),
      )
      .returning();
    if (!used) return null;
    const [merchant] = await tx.select().from(merchants).where(eq(merchants.id, used.merchantId));
    if (!merchant || merchant.status !== "APPROVED") return null;
    const session = await startHomeSession(tx, merchant, used.via);
    await asActor(
      used.via === "isv"
        ? { type: "isv", id: merchant.isvAccountId, via: "login_link", clientAddress }
        : { type: "merchant", id: merchant.id, via: "home", clientAddress },
      () =>
        recordAudit(tx, { accountId: merchant.isvAccountId, action: "merchant.signed_in", resourceId: merchant.id }),
    );
    return { session, merchantId: merchant.id };
  });
}

/** The merchant a home session belongs to, or null (bad, expired, revoked, or the merchant is gone). */
export async function homeMerchant(db: DbOrTx, session: string | undefined) {
  return (await homeSessionOf(db, session))?.merchant ?? null;
}

/**
 * The home's sign-in page: a single-use link e-mailed to each approved merchant whose contact (or
 * owner one) has this address, within `isvAccountId` when the page is on an ISV's own domain. The
 * caller says the same whatever happened (nobody learns whether an address is known).
 */
export async function emailLoginLinks(db: Db, email: string, options: { isvAccountId?: string; locale: Locale }) {
  const address = email.trim().toLowerCase();
  const found = await db
    .select()
    .from(merchants)
    .where(
      and(
        eq(merchants.status, "APPROVED"),
        options.isvAccountId ? eq(merchants.isvAccountId, options.isvAccountId) : undefined,
        sql`(lower(${merchants.application}->'main_contact_person'->>'email') = ${address}
          or lower(${merchants.application}->'owner_one'->>'email') = ${address})`,
      ),
    )
    // The newest first: a person with more than five businesses gets links for the latest ones.
    .orderBy(desc(merchants.createdAt))
    .limit(5);
  for (const merchant of found) await emailLoginLink(db, merchant, address, options.locale);
  return found.length;
}

/** One new single-use sign-in link of `merchant`, e-mailed to `to`, in one transaction. */
async function emailLoginLink(db: Db, merchant: MerchantRow, to: string, locale: Locale) {
  await db.transaction(async (tx) => {
    const link = await insertLoginLink(tx, merchant, "email");
    const isv = await getAccount(tx, merchant.isvAccountId);
    await queueEmail(tx, {
      accountId: merchant.isvAccountId,
      merchantId: merchant.id,
      kind: "home_sign_in",
      to,
      locale,
      ...homeSignIn({ brand: brandOf(isv), locale, url: link.url }),
    });
  });
}

/** A new single-use sign-in link e-mailed to the merchant's contact (the step-up before a bank or contact change): how many were sent. */
export async function emailStepUpLink(db: Db, merchant: MerchantRow, locale: Locale) {
  const contact = (merchant.application.main_contact_person ?? {}) as { email?: string };
  if (!contact.email) return 0;
  await emailLoginLink(db, merchant, contact.email, locale);
  return 1;
}

/** POST /v1/merchants/{id}/sessions/revoke: the ISV signs the merchant out of its home everywhere (another ISV's merchant: 404). */
export async function revokeMerchantSessions(db: Db, isvAccountId: string, merchantId: string) {
  return db.transaction(async (tx) => {
    const merchant = await findMerchant(tx, isvAccountId, merchantId);
    const revoked = await revokeHomeSessions(tx, merchant.id, "isv");
    const keys = await revokeHomeMadeKeys(tx, merchant.id);
    await recordAudit(tx, { accountId: isvAccountId, action: "merchant.sessions_revoked", resourceId: merchant.id });
    return {
      object: "merchant_session_revocation" as const,
      merchant_id: merchant.id,
      revoked_sessions: revoked,
      revoked_api_keys: keys,
      revoked_at: clock.now().toISOString(),
    };
  });
}

/** The merchant an unused, unexpired login link would sign in, without using it (null: none). */
export async function peekLoginLink(db: DbOrTx, token: string) {
  const [link] = await db
    .select({ merchantId: merchantLoginTokens.merchantId })
    .from(merchantLoginTokens)
    .where(
      and(
        eq(merchantLoginTokens.tokenDigest, digestSecret(token)),
        isNull(merchantLoginTokens.usedAt),
        gt(merchantLoginTokens.expiresAt, clock.now()),
      ),
    );
  if (!link) return null;
  const [merchant] = await db.select().from(merchants).where(eq(merchants.id, link.merchantId));
  return merchant ?? null;
}
