import { and, eq, gt, isNull } from "drizzle-orm";

import { signToken, verifyToken } from "../../auth/jwt";
import { digestSecret } from "../../auth/secrets";
import { clock } from "../../clock";
import { one } from "../../db/one";
import { type AccountRow, accounts, type AccountSessionRow, accountSessions } from "../../db/schema";
import { type Db } from "../../db/types";
import { type Appearance, readAppearance } from "../../embed/appearance";
import { FRAME_AUDIENCE, FRAME_COOKIE_MAX_AGE } from "../../embed/frame";
import { createId, randomBase62 } from "../../ids";
import {
  type CreateAccountSession,
  type EmbedComponent,
  embedComponents,
  type SessionComponents,
} from "../../schemas/account-sessions";
import { settingsOf } from "../accounts/isv-facts";
import { recordAudit } from "../audit/record-audit";
import { findMerchant } from "../merchants/find-merchant";

// Account sessions (docs/reference.md section 15): the ISV's server asks for one per page view of
// its embedded components; the page's loader hands the client secret to the component's frame,
// which exchanges it once for the frame's own session (scoped to that merchant and those
// components, ending with the account session's hour).

export const ACCOUNT_SESSION_TTL_SECONDS = 3600;

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
    const now = clock.now();
    const row = one(
      await tx
        .insert(accountSessions)
        .values({
          id,
          isvAccountId,
          merchantId: merchant.id,
          components: resolveComponents(input.components),
          secretDigest: digestSecret(clientSecret),
          expiresAt: new Date(now.getTime() + ACCOUNT_SESSION_TTL_SECONDS * 1000),
          createdAt: now,
        })
        .returning(),
    );
    await recordAudit(tx, {
      accountId: isvAccountId,
      action: "account_session.created",
      resourceId: merchant.id,
      fields: Object.keys(row.components),
    });
    return serializeAccountSession(row, clientSecret);
  });
}

export type FrameSession = {
  accountSessionId: string;
  isvAccountId: string;
  merchantId: string;
  components: SessionComponents;
  /** The host page's origin (one of the ISV's allowed origins when the secret was exchanged). */
  origin: string;
  appearance: Appearance;
};

export type ExchangeRefusal = "invalid_secret" | "origin_not_allowed" | "component_not_enabled";

/**
 * The frame's exchange: a client secret, once, within its hour, for the frame's session token (a JWT
 * for the `embed` audience, scoped to the merchant and the components, naming the host page's origin
 * and its appearance, expiring with the account session). Refused, with nothing spent: a host page
 * whose origin is not in the ISV's `embed_allowed_origins`, a component the session does not open.
 * Unknown, used or expired secrets: `invalid_secret`. Two exchanges racing: one wins (a conditional
 * update).
 */
export async function exchangeClientSecret(
  db: Db,
  input: { clientSecret: string; component: EmbedComponent; origin: string; appearance?: unknown },
  now = clock.now(),
): Promise<
  { ok: true; token: string; expiresAt: Date; session: FrameSession } | { ok: false; reason: ExchangeRefusal }
> {
  const digest = digestSecret(input.clientSecret);
  const [found] = await db
    .select({ session: accountSessions, isv: accounts })
    .from(accountSessions)
    .innerJoin(accounts, eq(accounts.id, accountSessions.isvAccountId))
    .where(eq(accountSessions.secretDigest, digest));
  if (!found || found.session.exchangedAt || found.session.expiresAt <= now)
    return { ok: false, reason: "invalid_secret" };
  if (!allowsOrigin(found.isv, input.origin)) return { ok: false, reason: "origin_not_allowed" };
  if (found.session.components[input.component]?.enabled !== true)
    return { ok: false, reason: "component_not_enabled" };
  const [row] = await db
    .update(accountSessions)
    .set({ exchangedAt: now })
    .where(
      and(
        eq(accountSessions.secretDigest, digest),
        isNull(accountSessions.exchangedAt),
        gt(accountSessions.expiresAt, now),
      ),
    )
    .returning();
  if (!row) return { ok: false, reason: "invalid_secret" };
  const appearance = readAppearance(input.appearance);
  const ttl = Math.max(1, Math.floor((row.expiresAt.getTime() - now.getTime()) / 1000));
  const token = await signToken(
    { isv: row.isvAccountId, merchant: row.merchantId, components: row.components, origin: input.origin, appearance },
    row.id,
    ttl,
    FRAME_AUDIENCE,
  );
  return {
    ok: true,
    token,
    expiresAt: row.expiresAt,
    session: { ...frameSessionOf(row), origin: input.origin, appearance },
  };
}

/** Whether the ISV lets `origin` frame its merchants' components (its settings' list, exactly). */
export function allowsOrigin(isv: AccountRow, origin: string) {
  return settingsOf(isv).embed_allowed_origins.includes(origin);
}

/** The ISV behind an account session's id (the frame's first page sets its CSP from it), or null. */
export async function accountSessionIsv(db: Db, accountSessionId: string) {
  if (!/^as_[0-9A-Za-z]{1,64}$/.test(accountSessionId)) return null;
  const [row] = await db
    .select({ isv: accounts })
    .from(accountSessions)
    .innerJoin(accounts, eq(accounts.id, accountSessions.isvAccountId))
    .where(eq(accountSessions.id, accountSessionId));
  return row?.isv ?? null;
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
  if (!claims || typeof claims.sub !== "string" || typeof claims.origin !== "string") return null;
  return {
    ...frameSessionOf({
      id: claims.sub,
      isvAccountId: String(claims.isv),
      merchantId: String(claims.merchant),
      components: claims.components as SessionComponents,
    }),
    origin: claims.origin,
    appearance: readAppearance(claims.appearance),
  };
}

/**
 * What a frame's cookie says: no frame at all, an active session, or one past its hour (its host
 * page's origin, to tell it so: the loader then asks its page for a new client secret).
 */
export async function frameState(
  token: string | undefined,
): Promise<{ kind: "none" } | { kind: "active"; session: FrameSession } | { kind: "expired"; origin: string }> {
  const session = await frameSession(token);
  if (session) return { kind: "active", session };
  const claims = token ? await verifyToken(token, FRAME_AUDIENCE, FRAME_COOKIE_MAX_AGE) : null;
  return claims && typeof claims.origin === "string" ? { kind: "expired", origin: claims.origin } : { kind: "none" };
}

/** Whether a frame session may show `component` (a payments-only session never opens onboarding). */
export const opens = (session: FrameSession | null, component: EmbedComponent) =>
  session?.components[component]?.enabled === true;

/** Whether a frame session's component has a feature on (refunds, dispute_management). */
export const allows = (
  session: FrameSession | null,
  component: EmbedComponent,
  feature: "refunds" | "dispute_management",
) => session?.components[component]?.features[feature] === true;
