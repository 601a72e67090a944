import "server-only";

import { and, eq } from "drizzle-orm";
import { cookies, headers } from "next/headers";
import { redirect } from "next/navigation";

import { asActor } from "../audit/actor";
import { DASHBOARD_COOKIE } from "../auth/cookies";
import { verifyToken } from "../auth/jwt";
import { permission, permissionDenied, type Resource, roleMay } from "../auth/permissions";
import { CLIENT_ADDRESS_HEADER } from "../auth/sign-in-limiter";
import { getDatabase } from "../db/client";
import { users, userSessions } from "../db/schema";
import { getAccount } from "../domain/accounts/get-account";
import { tokenStillValid } from "../domain/accounts/password-reset";
import { sessionOpen } from "../domain/accounts/sign-in";

/** A permission as pages and actions name it: `"payments:write"`. */
export type PermissionSpec = `${Resource}:${"read" | "write"}`;

/** The signed-in ISV member (the sign-in JWT in an httpOnly cookie), or a redirect to sign in. */
async function signedInMember() {
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
      role: users.role,
      removedAt: users.removedAt,
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
    user.removedAt !== null ||
    !tokenStillValid(user, claims.iat) ||
    !sessionOpen(claims, user.sessionId ? { endedAt: user.sessionEndedAt } : null)
  )
    redirect("/sign-in");
  return {
    db,
    account,
    userId: claims.sub as string,
    /** The member's role (section 23): what it may see and do. */
    role: user.role,
    /** This sign-in's session (the settings' list marks it; "sign out everywhere" keeps it). */
    sessionId: typeof claims.sid === "string" ? claims.sid : null,
    /** When the user signed in with the password (Unix seconds): sensitive changes need a recent one. */
    signedInAt: typeof claims.iat === "number" ? claims.iat : null,
  };
}

export type IsvMember = Awaited<ReturnType<typeof signedInMember>>;

/** Whether the member's role allows it. */
export const memberMay = (member: { role: IsvMember["role"] }, spec: PermissionSpec) =>
  roleMay(member.role, permission(spec));

/**
 * A dashboard page's member: signed in (else the sign-in page), and allowed `spec` by its role
 * (else a page that says which role it needs).
 */
export async function requireIsvUser(spec: PermissionSpec) {
  const member = await signedInMember();
  if (!memberMay(member, spec)) redirect(`/dashboard/forbidden?needs=${spec}`);
  return member;
}

/**
 * A dashboard action as the signed-in ISV member: refused (403 `permission_denied`) when its role
 * does not allow `spec`; every change it makes is audited under that member (lib/audit/actor.ts),
 * with the client's address.
 */
export async function asIsvUser<T>(spec: PermissionSpec, work: (user: IsvMember) => Promise<T>): Promise<T> {
  const user = await signedInMember();
  if (!memberMay(user, spec)) throw permissionDenied(user.role, permission(spec));
  const address = (await headers()).get(CLIENT_ADDRESS_HEADER);
  return asActor({ type: "user", id: user.userId, clientAddress: address }, () => work(user));
}
