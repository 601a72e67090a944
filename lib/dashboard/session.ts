import "server-only";

import { cookies, headers } from "next/headers";
import { redirect } from "next/navigation";

import { asActor, memberActor } from "../audit/actor";
import { DASHBOARD_COOKIE } from "../auth/cookies";
import { verifyToken } from "../auth/jwt";
import { permission, permissionDenied, type Resource, roleMay } from "../auth/permissions";
import { CLIENT_ADDRESS_HEADER } from "../auth/sign-in-limiter";
import { getDatabase } from "../db/client";
import { getAccount } from "../domain/accounts/get-account";
import { memberOfToken } from "../domain/accounts/member-token";

/** A permission as pages and actions name it: `"payments:write"`. */
export type PermissionSpec = `${Resource}:${"read" | "write"}`;

/** The dashboard cookie's member and session, whatever the session's stage (null: it opens nothing). */
export async function cookieMember() {
  const token = (await cookies()).get(DASHBOARD_COOKIE)?.value;
  const claims = token ? await verifyToken(token, "api") : null;
  if (!claims) return null;
  const { db } = await getDatabase();
  const member = await memberOfToken(db, claims);
  if (!member || member.type !== "isv") return null;
  return { db, member };
}

/** The signed-in ISV member (the sign-in JWT in an httpOnly cookie), or a redirect to sign in. */
async function signedInMember() {
  const found = await cookieMember();
  if (!found) redirect("/sign-in");
  const { db, member } = found;
  // The password was right; the second factor is due, or an owner or admin must set one up first.
  if (member.stage === "second_factor") redirect("/sign-in/verify");
  if (member.stage === "enrol") redirect("/sign-in/enrol");
  const account = await getAccount(db, member.accountId).catch(() => null);
  if (!account) redirect("/sign-in");
  return {
    db,
    account,
    userId: member.userId,
    /** The member's role (section 23): what it may see and do. */
    role: member.role,
    /** This sign-in's session (the settings' list marks it; "sign out everywhere" keeps it). */
    sessionId: member.sessionId,
    /** The second factor this sign-in used (null: a password alone); the audit log names it. */
    factor: member.factor,
    /** When the sign-in finished (Unix seconds): sensitive changes need a recent one. */
    signedInAt: member.signedInAt,
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
  return asActor(memberActor(user, { clientAddress: address }), () => work(user));
}
