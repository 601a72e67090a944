import "server-only";

import { cookies } from "next/headers";
import { redirect } from "next/navigation";

import { verifyToken } from "../auth/jwt";
import { getDatabase } from "../db/client";
import { getAccount } from "../domain/accounts/get-account";

export const DASHBOARD_COOKIE = "dashboard_session";

/** The signed-in ISV user (the sign-in JWT in an httpOnly cookie), or a redirect to sign in. */
export async function requireIsvUser() {
  const token = (await cookies()).get(DASHBOARD_COOKIE)?.value;
  const claims = token ? await verifyToken(token, "api") : null;
  if (!claims || claims.kind !== "user" || typeof claims.account_id !== "string") redirect("/sign-in");
  const { db } = await getDatabase();
  const account = await getAccount(db, claims.account_id).catch(() => null);
  if (!account || account.type !== "isv") redirect("/sign-in");
  return { db, account, userId: claims.sub as string };
}
