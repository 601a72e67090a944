"use server";
import { cookies, headers } from "next/headers";
import { redirect } from "next/navigation";

import { DASHBOARD_COOKIE, firstPartyCookie } from "@/lib/auth/cookies";
import { checkSignInAttempts, CLIENT_ADDRESS_HEADER } from "@/lib/auth/sign-in-limiter";
import { getDatabase } from "@/lib/db/client";
import { endUserSession, signIn } from "@/lib/domain/accounts/sign-in";
import { AppError } from "@/lib/errors";

export type SignInState = { error: "invalid" | "rate_limited" | null; email: string };

/** Sign-in: the JWT goes into an httpOnly, SameSite=Lax cookie; the same token works as a Bearer token. */
export async function signInAction(_prev: SignInState, form: FormData): Promise<SignInState> {
  const email = String(form.get("email") ?? "");
  const password = String(form.get("password") ?? "");
  // The socket's address, put there by server.ts (a client cannot choose it).
  const address = (await headers()).get(CLIENT_ADDRESS_HEADER) ?? "unknown";
  let next = "/dashboard";
  try {
    await checkSignInAttempts(email, address);
    const { db } = await getDatabase();
    const { access_token, expires_in, user, stage } = await signIn(db, email, password, {
      userAgent: (await headers()).get("user-agent"),
      address,
    });
    const { getAccount } = await import("@/lib/domain/accounts/get-account");
    if ((await getAccount(db, user.accountId)).type !== "isv") return { error: "invalid", email };
    (await cookies()).set(DASHBOARD_COOKIE, access_token, firstPartyCookie(expires_in));
    // The password was right: the second factor next (or its set-up, for an owner or admin with none).
    if (stage !== "complete") next = stage === "enrol" ? "/sign-in/enrol" : "/sign-in/verify";
  } catch (error) {
    if (error instanceof AppError)
      return { error: error.code === "too_many_sign_in_attempts" ? "rate_limited" : "invalid", email };
    throw error;
  }
  redirect(next);
}

/** Sign-out: the sign-in's session ends (its token opens nothing more, as a cookie or a Bearer), then the cookie goes. */
export async function signOutAction() {
  const jar = await cookies();
  const { db } = await getDatabase();
  await endUserSession(db, jar.get(DASHBOARD_COOKIE)?.value);
  jar.delete(DASHBOARD_COOKIE);
  redirect("/sign-in");
}
