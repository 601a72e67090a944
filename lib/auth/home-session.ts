import { and, eq, gt, inArray, isNotNull, isNull, ne } from "drizzle-orm";

import { apiKeys, type MerchantRow, merchants, type MerchantSessionRow, merchantSessions } from "../db/schema";
import { type DbOrTx } from "../db/types";
import { createId } from "../ids";
import { signToken, verifyToken } from "./jwt";

// The merchant home's sessions (docs/reference.md section 15). The cookie holds a signed token that
// names a row of merchant_sessions; the row is what makes it valid, so a session can be ended before
// its 12 hours: by its own sign-out, or for every session of the merchant at once (deactivation, a
// bank account or contact change, the ISV's POST /v1/merchants/{id}/sessions/revoke, and a "this
// wasn't me" answer to a change notice).

export const HOME_SESSION_TTL_SECONDS = 12 * 3600;
/** A bank account or contact change needs a sign-in this recent (a step-up: a new login link otherwise). */
export const STEP_UP_SECONDS = 15 * 60;
const AUDIENCE = "home";

export type RevokeReason =
  "sign_out" | "deactivated" | "bank_account_changed" | "payout_card_changed" | "contact_changed" | "isv" | "reported";

/** A new 12-hour session of an approved merchant, begun by a login link of the ISV or of the merchant's e-mail. */
export async function startHomeSession(
  db: DbOrTx,
  merchant: Pick<MerchantRow, "id" | "isvAccountId">,
  via: "isv" | "email",
) {
  const id = createId("hs");
  await db.insert(merchantSessions).values({
    id,
    isvAccountId: merchant.isvAccountId,
    merchantId: merchant.id,
    via,
    expiresAt: new Date(Date.now() + HOME_SESSION_TTL_SECONDS * 1000),
  });
  return signToken(
    { kind: "merchant_home", merchant_id: merchant.id, isv_account_id: merchant.isvAccountId, sid: id },
    merchant.id,
    HOME_SESSION_TTL_SECONDS,
    AUDIENCE,
  );
}

/** The session a cookie's token names and its approved merchant, or null (bad, expired, revoked, or the merchant is gone). */
export async function homeSessionOf(
  db: DbOrTx,
  token: string | undefined,
): Promise<{ merchant: MerchantRow; session: MerchantSessionRow } | null> {
  const claims = token ? await verifyToken(token, AUDIENCE) : null;
  if (!claims || claims.kind !== "merchant_home" || typeof claims.sid !== "string") return null;
  const [found] = await db
    .select({ session: merchantSessions, merchant: merchants })
    .from(merchantSessions)
    .innerJoin(merchants, eq(merchants.id, merchantSessions.merchantId))
    .where(
      and(
        eq(merchantSessions.id, claims.sid),
        eq(merchantSessions.merchantId, String(claims.merchant_id)),
        eq(merchants.isvAccountId, String(claims.isv_account_id)),
        isNull(merchantSessions.revokedAt),
        gt(merchantSessions.expiresAt, new Date()),
      ),
    );
  if (!found || found.merchant.status !== "APPROVED") return null;
  return found;
}

/**
 * Whether the session may change the bank account or the contact (the step-up): the merchant itself
 * signed in within STEP_UP_SECONDS through a link e-mailed to its contact. A session the ISV opened
 * with its own login link never may: whoever holds the ISV's key must not redirect the merchant's
 * money or sign-in links.
 */
export const isFreshSession = (session: Pick<MerchantSessionRow, "createdAt" | "via">, now = new Date()) =>
  session.via === "email" && now.getTime() - session.createdAt.getTime() <= STEP_UP_SECONDS * 1000;

/** Ends one session (its sign-out). */
export async function endHomeSession(db: DbOrTx, sessionId: string) {
  await db
    .update(merchantSessions)
    .set({ revokedAt: new Date(), revokedReason: "sign_out" })
    .where(and(eq(merchantSessions.id, sessionId), isNull(merchantSessions.revokedAt)));
}

/**
 * Ends every live session of the merchant (but `except`, the one that made the change): answers how
 * many were ended.
 */
export async function revokeHomeSessions(
  db: DbOrTx,
  merchantId: string,
  reason: RevokeReason,
  options: { except?: string } = {},
) {
  const now = new Date();
  const ended = await db
    .update(merchantSessions)
    .set({ revokedAt: now, revokedReason: reason })
    .where(
      and(
        eq(merchantSessions.merchantId, merchantId),
        isNull(merchantSessions.revokedAt),
        gt(merchantSessions.expiresAt, now),
        options.except ? ne(merchantSessions.id, options.except) : undefined,
      ),
    )
    .returning({ id: merchantSessions.id });
  return ended.length;
}

/**
 * Ends the merchant's own secret key when it was made in its home (a session's key, `home_session_id`):
 * with the ISV's sign-out-everywhere and a reported change, whoever held a session may have made it.
 * Answers how many were ended (0 or 1).
 */
export async function revokeHomeMadeKeys(db: DbOrTx, merchantId: string) {
  const ended = await db
    .update(apiKeys)
    .set({ revokedAt: new Date() })
    .where(
      and(
        isNull(apiKeys.revokedAt),
        isNotNull(apiKeys.homeSessionId),
        inArray(
          apiKeys.accountId,
          db
            .select({ id: merchants.merchantAccountId })
            .from(merchants)
            .where(and(eq(merchants.id, merchantId), isNotNull(merchants.merchantAccountId))),
        ),
      ),
    )
    .returning({ id: apiKeys.id });
  return ended.length;
}
