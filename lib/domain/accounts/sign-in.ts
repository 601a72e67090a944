import { and, eq, isNull } from "drizzle-orm";

import { signUserToken, USER_TOKEN_TTL_SECONDS, verifyToken } from "../../auth/jwt";
import { decoyPasswordHash, hashPassword, needsRehash, verifyPassword } from "../../auth/secrets";
import { clock } from "../../clock";
import { users, userSessions } from "../../db/schema";
import { type DbOrTx } from "../../db/types";
import { AppError } from "../../errors";
import { createId } from "../../ids";
import { findUserByEmail } from "./find-user-by-email";

/** `account-password-sign-in`: e-mail and password → a Bearer JWT. Same answer and time for any wrong pair. */
export async function signIn(
  db: DbOrTx,
  email: string,
  password: string,
  client: { userAgent?: string | null; address?: string | null } = {},
) {
  const user = await findUserByEmail(db, email);
  const ok = await verifyPassword(password, user?.passwordHash ?? (await decoyPasswordHash()));
  if (!user || !ok) throw new AppError("invalid_credentials", "Wrong e-mail or password");
  // A hash made with older, weaker parameters is replaced now that the password is known.
  if (needsRehash(user.passwordHash))
    await db
      .update(users)
      .set({ passwordHash: await hashPassword(password) })
      .where(eq(users.id, user.id));
  return openSession(db, user, client);
}

/** A new session for a member who just proved who it is (a password, an accepted invitation): its sign-in token. */
export async function openSession(
  db: DbOrTx,
  user: { id: string; accountId: string },
  client: { userAgent?: string | null; address?: string | null } = {},
) {
  const sid = createId("uss");
  await db.insert(userSessions).values({
    id: sid,
    userId: user.id,
    expiresAt: new Date(clock.ms() + USER_TOKEN_TTL_SECONDS * 1000),
    userAgent: client.userAgent?.slice(0, 200) ?? null,
    clientAddress: client.address ?? null,
  });
  const accessToken = await signUserToken({ sub: user.id, account_id: user.accountId, sid });
  return { access_token: accessToken, token_type: "Bearer" as const, expires_in: USER_TOKEN_TTL_SECONDS, user };
}

/**
 * Sign-out: the session of this sign-in token ends now (the token no longer opens the dashboard or
 * `/v1`). A token that is not a live user token ends nothing.
 */
export async function endUserSession(db: DbOrTx, token: string | undefined) {
  const claims = token ? await verifyToken(token, "api") : null;
  if (!claims || claims.kind !== "user" || typeof claims.sid !== "string") return false;
  const ended = await db
    .update(userSessions)
    .set({ endedAt: clock.now() })
    .where(
      and(eq(userSessions.id, claims.sid), eq(userSessions.userId, String(claims.sub)), isNull(userSessions.endedAt)),
    )
    .returning({ id: userSessions.id });
  return ended.length > 0;
}

/** Whether a verified user token's session is still open (a token from before sessions were rows has none: its hour runs out). */
export const sessionOpen = (claims: Record<string, unknown>, session: { endedAt: Date | null } | null | undefined) =>
  typeof claims.sid !== "string" || (session !== null && session !== undefined && session.endedAt === null);
