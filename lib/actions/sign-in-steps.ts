"use server";
import type { AuthenticationResponseJSON } from "@simplewebauthn/server";
import { cookies, headers } from "next/headers";
import { redirect } from "next/navigation";

import { DASHBOARD_COOKIE, firstPartyCookie } from "@/lib/auth/cookies";
import { checkAttempts, CLIENT_ADDRESS_HEADER } from "@/lib/auth/sign-in-limiter";
import { cookieMember } from "@/lib/dashboard/session";
import type { SignInFactor } from "@/lib/db/schema";
import { finishSignIn } from "@/lib/domain/accounts/sign-in";
import { factorRequired, memberFactors, useSecondFactor } from "@/lib/domain/team/factors";
import { passkeySignInOptions } from "@/lib/domain/team/passkeys";

import { attempt } from "./result";

// The sign-in's second step (docs/reference.md section 23): the code of an authenticator app, a
// recovery code or a passkey, for a session the password opened at `second_factor`; at `enrol`, going
// on once a factor is set up, or without one for a member whose role does not require it. Each finishes the sign-in with a new
// session and token in the cookie.

export type VerifyState = { error: "invalid" | "rate_limited" | "expired" | null };

const client = async () => {
  const head = await headers();
  return { userAgent: head.get("user-agent"), address: head.get(CLIENT_ADDRESS_HEADER) ?? "unknown" };
};

/** The cookie's session when it is at `stage` (null: none, or another stage). */
async function pendingAt(stage: "second_factor" | "enrol") {
  const found = await cookieMember();
  return found && found.member.stage === stage ? found : null;
}

/** The new session's token in the cookie (as long as the session lasts). */
export async function setSignInCookie(session: { access_token: string; expires_in: number }) {
  (await cookies()).set(DASHBOARD_COOKIE, session.access_token, firstPartyCookie(session.expires_in));
}

async function finishWith(
  found: NonNullable<Awaited<ReturnType<typeof pendingAt>>>,
  factor: SignInFactor | null,
): Promise<boolean> {
  const { db, member } = found;
  const session = await finishSignIn(
    db,
    { sessionId: member.sessionId ?? "", userId: member.userId, accountId: member.accountId },
    factor,
    await client(),
  );
  if (!session) return false;
  await setSignInCookie(session);
  return true;
}

/** Checks the second factor (`proof`) for the pending sign-in, counted against the member's attempts. */
async function verify(proof: { code?: unknown; passkey?: unknown }): Promise<VerifyState> {
  const found = await pendingAt("second_factor");
  if (!found) return { error: "expired" };
  const { address } = await client();
  const allowed = await attempt(() => checkAttempts("second-factor", found.member.userId, address));
  if (!allowed.ok) return { error: "rate_limited" };
  const factor = await useSecondFactor(found.db, found.member.userId, proof);
  if (!factor) return { error: "invalid" };
  if (!(await finishWith(found, factor))) return { error: "expired" };
  redirect(factor === "recovery_code" ? "/dashboard/settings?recovery=used#security" : "/dashboard");
}

/** The code form: an authenticator app's six digits or a recovery code. */
export async function verifyCodeAction(_prev: VerifyState, form: FormData): Promise<VerifyState> {
  return verify({ code: String(form.get("code") ?? "") });
}

/** The browser's passkey answer to the challenge of passkeySignInOptionsAction. */
export async function verifyPasskeyAction(response: AuthenticationResponseJSON): Promise<VerifyState> {
  return verify({ passkey: response });
}

/** A challenge for the pending member's passkeys (null: none, or no pending sign-in). */
export async function passkeySignInOptionsAction() {
  const found = await pendingAt("second_factor");
  return found ? passkeySignInOptions(found.db, found.member.userId) : null;
}

/**
 * The set-up step done (a factor kept, its recovery codes seen): the sign-in finishes with the factor
 * just set up. Without one, back to the set-up.
 */
export async function finishEnrolmentAction() {
  const found = await pendingAt("enrol");
  if (!found) redirect("/sign-in");
  const newest = (await memberFactors(found.db, found.member.userId)).at(-1);
  if (!newest) redirect("/sign-in/enrol");
  await finishWith(found, newest.kind);
  redirect("/dashboard");
}

/** A member whose role does not require a factor goes on without one (it can set one up in its settings). */
export async function skipEnrolmentAction() {
  const found = await pendingAt("enrol");
  if (!found) redirect("/sign-in");
  // Skipped after all once a factor is set up on this page: the sign-in is finished with it.
  const newest = (await memberFactors(found.db, found.member.userId)).at(-1);
  if (!newest && factorRequired(found.member.role)) redirect("/sign-in/enrol");
  await finishWith(found, newest?.kind ?? null);
  redirect("/dashboard");
}
