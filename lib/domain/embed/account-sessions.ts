import { and, eq, gt, isNull } from "drizzle-orm";

import { signToken, verifyToken } from "../../auth/jwt";
import { type AccountSessionRow, accountSessions } from "../../db/schema";
import { type Db } from "../../db/types";
import { createId, randomBase62 } from "../../ids";
import {
  type CreateAccountSession,
  type EmbedComponent,
  embedComponents,
  type SessionComponents,
} from "../../schemas/account-sessions";
import { recordAudit } from "../audit/record-audit";
import { findMerchant } from "../merchants/find-merchant";
import { digestToken } from "../onboarding/create-onboarding-link";

// Account sessions (docs/reference.md section 15): the ISV's server asks for one per page view of
// its embedded components; the page's loader hands the client secret to the component's frame,
// which exchanges it once for the frame's own session (scoped to that merchant and those
// components, ending with the account session's hour).

export const ACCOUNT_SESSION_TTL_SECONDS = 3600;
const FRAME_AUDIENCE = "embed";

/** The components asked for, enabled ones only, every feature on unless turned off. */
export function resolveComponents(asked: CreateAccountSession["components"]): SessionComponents {
  const out: SessionComponents = {};
  for (const name of embedComponents) {
    const setting = asked[name];
    if (!setting?.enabled) continue;
    out[name] = {
      enabled: true,
      features: {
        refunds: setting.features?.refunds ?? true,
        dispute_management: setting.features?.dispute_management ?? true,
      },
    };
  }
  return out;
}

export function serializeAccountSession(row: AccountSessionRow, clientSecret: string) {
  return {
    object: "account_session" as const,
    id: row.id,
    merchant_id: row.merchantId,
    client_secret: clientSecret,
    components: row.components,
    expires_at: row.expiresAt.getTime(),
    created_at: row.createdAt.getTime(),
  };
}

/**
 * POST /v1/account_sessions: for one of the ISV's merchants (another's: 404), the components its
 * page may embed. The client secret is answered once and only its digest kept.
 */
export async function createAccountSession(db: Db, isvAccountId: string, input: CreateAccountSession) {
  return db.transaction(async (tx) => {
    const merchant = await findMerchant(tx, isvAccountId, input.merchant_id);
    const id = createId("as");
    const clientSecret = `${id}_secret_${randomBase62(32)}`;
    const now = new Date();
    const [row] = await tx
      .insert(accountSessions)
      .values({
        id,
        isvAccountId,
        merchantId: merchant.id,
        components: resolveComponents(input.components),
        secretDigest: digestToken(clientSecret),
        expiresAt: new Date(now.getTime() + ACCOUNT_SESSION_TTL_SECONDS * 1000),
        createdAt: now,
      })
      .returning();
    await recordAudit(tx, {
      accountId: isvAccountId,
      action: "account_session.created",
      resourceId: merchant.id,
      fields: Object.keys(row!.components),
    });
    return serializeAccountSession(row!, clientSecret);
  });
}

export type FrameSession = {
  accountSessionId: string;
  isvAccountId: string;
  merchantId: string;
  components: SessionComponents;
};

/**
 * The frame's exchange: a client secret, once, within its hour, for the frame's session token
 * (a JWT for the `embed` audience, scoped to the merchant and the components, expiring with the
 * account session). Unknown, used or expired: null (the frame says so to the host page). Two
 * exchanges racing: one wins (a conditional update).
 */
export async function exchangeClientSecret(db: Db, clientSecret: string, now = new Date()) {
  const [row] = await db
    .update(accountSessions)
    .set({ exchangedAt: now })
    .where(
      and(
        eq(accountSessions.secretDigest, digestToken(clientSecret)),
        isNull(accountSessions.exchangedAt),
        gt(accountSessions.expiresAt, now),
      ),
    )
    .returning();
  if (!row) return null;
  const ttl = Math.max(1, Math.floor((row.expiresAt.getTime() - now.getTime()) / 1000));
  const token = await signToken(
    { isv: row.isvAccountId, merchant: row.merchantId, components: row.components },
    row.id,
    ttl,
    FRAME_AUDIENCE,
  );
  return { token, expiresAt: row.expiresAt, session: frameSessionOf(row) };
}

const frameSessionOf = (row: Pick<AccountSessionRow, "id" | "isvAccountId" | "merchantId" | "components">) => ({
  accountSessionId: row.id,
  isvAccountId: row.isvAccountId,
  merchantId: row.merchantId,
  components: row.components,
});

/** The frame's session from its token, or null (bad, expired, or for another audience). */
export async function frameSession(token: string | undefined): Promise<FrameSession | null> {
  if (!token) return null;
  const claims = await verifyToken(token, FRAME_AUDIENCE);
  if (!claims || typeof claims.sub !== "string") return null;
  return frameSessionOf({
    id: claims.sub,
    isvAccountId: String(claims.isv),
    merchantId: String(claims.merchant),
    components: claims.components as SessionComponents,
  });
}

/** Whether a frame session may show `component` (a payments-only session never opens onboarding). */
export const opens = (session: FrameSession | null, component: EmbedComponent) =>
  session?.components[component]?.enabled === true;
