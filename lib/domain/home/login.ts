import { and, desc, eq, gt, isNull, sql } from "drizzle-orm";

import { signToken, verifyToken } from "../../auth/jwt";
import { hostedBaseUrl } from "../../branding/hosts";
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
import { digestToken } from "../onboarding/create-onboarding-link";

// The merchant's home (docs/reference.md section 15): a single-use sign-in link, made by the ISV or
// e-mailed from the home's sign-in page, opens a 12-hour session of that merchant alone.

export const LOGIN_LINK_TTL_SECONDS = 5 * 60;
export const HOME_SESSION_TTL_SECONDS = 12 * 3600;
export const HOME_COOKIE = "merchant_session";
const AUDIENCE = "home";

/** In the caller's transaction: a new single-use link for an approved merchant. */
export async function insertLoginLink(tx: DbOrTx, merchant: MerchantRow, via: "isv" | "email") {
  if (merchant.status !== "APPROVED")
    throw invalidState(
      `The merchant's home opens once it is approved (lead_onboarding_status is ${merchant.status}): send an onboarding link instead`,
    );
  const isv = await getAccount(tx, merchant.isvAccountId);
  const token = randomBase62(43);
  const expiresAt = new Date(Date.now() + LOGIN_LINK_TTL_SECONDS * 1000);
  await tx.insert(merchantLoginTokens).values({
    id: createId("mll"),
    isvAccountId: merchant.isvAccountId,
    merchantId: merchant.id,
    tokenDigest: digestToken(token),
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
 * Uses a link once: the session token of its merchant, or null when the link is unknown, used,
 * expired, or its merchant can no longer sign in (deactivated merchants keep their home: they read
 * their history). Two clicks racing: one wins (a conditional update).
 */
export async function useLoginLink(db: Db, token: string): Promise<{ session: string; merchantId: string } | null> {
  const now = new Date();
  const [used] = await db
    .update(merchantLoginTokens)
    .set({ usedAt: now })
    .where(
      and(
        eq(merchantLoginTokens.tokenDigest, digestToken(token)),
        isNull(merchantLoginTokens.usedAt),
        gt(merchantLoginTokens.expiresAt, now),
      ),
    )
    .returning();
  if (!used) return null;
  const [merchant] = await db.select().from(merchants).where(eq(merchants.id, used.merchantId));
  if (!merchant || merchant.status !== "APPROVED") return null;
  return { session: await homeSessionToken(merchant), merchantId: merchant.id };
}

/**
 * A 12-hour home session for an approved merchant: after a login link, or after its onboarding
 * link once onboarding is over (the portal and the home are one: the same link lands on the home).
 */
export function homeSessionToken(merchant: Pick<MerchantRow, "id" | "isvAccountId">) {
  return signToken(
    { kind: "merchant_home", merchant_id: merchant.id, isv_account_id: merchant.isvAccountId },
    merchant.id,
    HOME_SESSION_TTL_SECONDS,
    AUDIENCE,
  );
}

/** The merchant a home session belongs to, or null (bad, expired, or the merchant is gone). */
export async function homeMerchant(db: DbOrTx, session: string | undefined) {
  const claims = session ? await verifyToken(session, AUDIENCE) : null;
  if (!claims || claims.kind !== "merchant_home" || typeof claims.merchant_id !== "string") return null;
  const [merchant] = await db
    .select()
    .from(merchants)
    .where(and(eq(merchants.id, claims.merchant_id), eq(merchants.isvAccountId, String(claims.isv_account_id))));
  if (!merchant || merchant.status !== "APPROVED") return null;
  return merchant;
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
  for (const merchant of found) {
    await db.transaction(async (tx) => {
      const link = await insertLoginLink(tx, merchant, "email");
      const isv = await getAccount(tx, merchant.isvAccountId);
      await queueEmail(tx, {
        accountId: merchant.isvAccountId,
        merchantId: merchant.id,
        kind: "home_sign_in",
        to: address,
        locale: options.locale,
        ...homeSignIn({ brand: brandOf(isv), locale: options.locale, url: link.url }),
      });
    });
  }
  return found.length;
}
