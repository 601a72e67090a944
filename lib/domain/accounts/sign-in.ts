import { and, eq, isNotNull, isNull } from "drizzle-orm";

import { signUserToken, USER_TOKEN_TTL_SECONDS, verifyToken } from "../../auth/jwt";
import type { Role } from "../../auth/permissions";
import { decoyPasswordHash, hashPassword, needsRehash, verifyPassword } from "../../auth/secrets";
import { checkAttempts } from "../../auth/sign-in-limiter";
import { clock } from "../../clock";
import { type SessionStage, type SignInFactor, userFactors, users, userSessions } from "../../db/schema";
import { type DbOrTx } from "../../db/types";
import { AppError } from "../../errors";
import { createId } from "../../ids";
import { factorRequired, useSecondFactor } from "../team/factors";
import { findUserByEmail } from "./find-user-by-email";

// Sign-in (docs/reference.md section 23): the password, then the member's second factor (an
// authenticator app's code, a passkey or a recovery code). Each step is a session row: the password
// opens a `second_factor` session (or `enrol` for an owner or admin with no factor yet) that opens
// nothing but that step for ten minutes; the factor ends it and opens a `complete` one with a new
// token, so a token of the first step never becomes a full sign-in.

/** How long the second step may take. */
const PENDING_SECONDS = 10 * 60;

type Client = { userAgent?: string | null; address?: string | null };
type Member = { id: string; accountId: string; role: Role };

/** The member behind an e-mail and password (a rehash of an old hash on the way); the same answer and time for any wrong pair. */
export async function checkPassword(db: DbOrTx, email: string, password: string) {
  const user = await findUserByEmail(db, email);
  const ok = await verifyPassword(password, user?.passwordHash ?? (await decoyPasswordHash()));
  if (!user || !ok) throw new AppError("invalid_credentials", "Wrong e-mail or password");
  // A hash made with older, weaker parameters is replaced now that the password is known.
  if (needsRehash(user.passwordHash))
    await db
      .update(users)
      .set({ passwordHash: await hashPassword(password) })
      .where(eq(users.id, user.id));
  return user;
}

/** What a member who gave the right password does next: its factor, set one up, or nothing. */
export async function stageAfterPassword(db: DbOrTx, member: Member): Promise<SessionStage> {
  const [factor] = await db
    .select({ id: userFactors.id })
    .from(userFactors)
    .where(and(eq(userFactors.userId, member.id), isNotNull(userFactors.confirmedAt)))
    .limit(1);
  if (factor) return "second_factor";
  return factorRequired(member.role) ? "enrol" : "complete";
}

/** The dashboard's first step: the password. A session at the stage it leads to, and its token. */
export async function signIn(db: DbOrTx, email: string, password: string, client: Client = {}) {
  const user = await checkPassword(db, email, password);
  const stage = await stageAfterPassword(db, user);
  return { ...(await openSession(db, user, client, { stage })), stage };
}

/**
 * `POST /v1/auth/token`: the password and, for a member with an authenticator app, its `code` (or a
 * recovery code) in the same call. An owner or admin with no factor sets one up in the dashboard
 * first (403); a member with passkeys only signs in there.
 */
export async function signInForToken(db: DbOrTx, email: string, password: string, code: unknown, client: Client) {
  const user = await checkPassword(db, email, password);
  const stage = await stageAfterPassword(db, user);
  if (stage === "enrol")
    throw new AppError(
      "second_factor_enrolment_required",
      "Owners and admins set up a second factor before anything else: sign in to the dashboard once to set it up",
    );
  if (stage === "complete") return openSession(db, user, client);
  if (code === undefined || code === null || code === "")
    throw new AppError(
      "second_factor_required",
      "This member signs in with a second factor: send `code`, the authenticator app's six digits (or a recovery code)",
      { param: "code" },
    );
  // The code's attempts count with the dashboard's second step (per member and address, per member).
  await checkAttempts("second-factor", user.id, client.address ?? "unknown");
  const factor = await useSecondFactor(db, user.id, { code });
  if (!factor) throw new AppError("invalid_second_factor", "Wrong or already used code", { param: "code" });
  return openSession(db, user, client, { factor });
}

/**
 * A new session for a member who just proved who it is (a password, a factor, an accepted
 * invitation) and its sign-in token. A `stage` other than `complete` lasts ten minutes.
 */
export async function openSession(
  db: DbOrTx,
  user: { id: string; accountId: string },
  client: Client = {},
  { stage = "complete", factor = null }: { stage?: SessionStage; factor?: SignInFactor | null } = {},
) {
  const sid = createId("uss");
  const seconds = stage === "complete" ? USER_TOKEN_TTL_SECONDS : PENDING_SECONDS;
  await db.insert(userSessions).values({
    id: sid,
    userId: user.id,
    expiresAt: new Date(clock.ms() + seconds * 1000),
    userAgent: client.userAgent?.slice(0, 200) ?? null,
    clientAddress: client.address ?? null,
    stage,
    factor,
  });
  const accessToken = await signUserToken({ sub: user.id, account_id: user.accountId, sid }, seconds);
  return { access_token: accessToken, token_type: "Bearer" as const, expires_in: seconds, user };
}

/**
 * The second step done (a factor checked, or a factor set up at `enrol`): the pending session ends
 * and a complete one opens, with a new token. Null when the pending session was already used.
 */
export async function finishSignIn(
  db: DbOrTx,
  pending: { sessionId: string; userId: string; accountId: string },
  factor: SignInFactor | null,
  client: Client,
) {
  const ended = await db
    .update(userSessions)
    .set({ endedAt: clock.now() })
    .where(
      and(
        eq(userSessions.id, pending.sessionId),
        eq(userSessions.userId, pending.userId),
        isNull(userSessions.endedAt),
      ),
    )
    .returning({ id: userSessions.id });
  if (ended.length === 0) return null;
  return openSession(db, { id: pending.userId, accountId: pending.accountId }, client, { factor });
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
