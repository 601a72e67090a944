import "server-only";

import { and, eq } from "drizzle-orm";
import { cookies, headers } from "next/headers";
import { redirect } from "next/navigation";

import { asActor } from "../audit/actor";
import { DASHBOARD_COOKIE } from "../auth/cookies";
import { verifyToken } from "../auth/jwt";
import { CLIENT_ADDRESS_HEADER } from "../auth/sign-in-limiter";
import { getDatabase } from "../db/client";
import { users, userSessions } from "../db/schema";
import { getAccount } from "../domain/accounts/get-account";
import { tokenStillValid } from "../domain/accounts/password-reset";
import { sessionOpen } from "../domain/accounts/sign-in";

/** The signed-in ISV user (the sign-in JWT in an httpOnly cookie), or a redirect to sign in. */
export async function requireIsvUser() {
  const token = (await cookies()).get(DASHBOARD_COOKIE)?.value;
  const claims = token ? await verifyToken(token, "api") : null;
  if (!claims || claims.kind !== "user" || typeof claims.account_id !== "string") redirect("/sign-in");
  const { db } = await getDatabase();
  const account = await getAccount(db, claims.account_id).catch(() => null);
  if (!account || account.type !== "isv") redirect("/sign-in");
  // The user still exists in this account, and no password reset ended this session.
  const [user] = await db
    .select({
      sessionsValidAfter: users.sessionsValidAfter,
      sessionEndedAt: userSessions.endedAt,
      sessionId: userSessions.id,
    })
    .from(users)
    .leftJoin(
      userSessions,
      and(eq(userSessions.id, typeof claims.sid === "string" ? claims.sid : ""), eq(userSessions.userId, users.id)),
    )
    .where(and(eq(users.id, String(claims.sub)), eq(users.accountId, account.id)));
  // Signed out (its session ended): the cookie opens nothing.
  if (
    !user ||
    !tokenStillValid(user, claims.iat) ||
    !sessionOpen(claims, user.sessionId ? { endedAt: user.sessionEndedAt } : null)
  )
    redirect("/sign-in");
  return {
    db,
    account,
    userId: claims.sub as string,
    /** When the user signed in with the password (Unix seconds): sensitive changes need a recent one. */
    signedInAt: typeof claims.iat === "number" ? claims.iat : null,
  };
}

/**
 * A dashboard action as the signed-in ISV user: every change it makes is audited under that user
 * (lib/audit/actor.ts), with the client's address.
 */
export async function asIsvUser<T>(work: (user: Awaited<ReturnType<typeof requireIsvUser>>) => Promise<T>): Promise<T> {
  const user = await requireIsvUser();
  const address = (await headers()).get(CLIENT_ADDRESS_HEADER);
  return asActor({ type: "user", id: user.userId, clientAddress: address }, () => work(user));
}
