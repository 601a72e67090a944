import "server-only";

import { cookies } from "next/headers";
import { redirect } from "next/navigation";

import { getDatabase } from "../db/client";
import { getAccount } from "../domain/accounts/get-account";
import { HOME_COOKIE, homeMerchant } from "../domain/home/login";

/** The signed-in merchant of the home (its 12-hour session cookie), with its ISV; or a redirect to sign in. */
export async function requireMerchant() {
  const { db } = await getDatabase();
  const merchant = await homeMerchant(db, (await cookies()).get(HOME_COOKIE)?.value);
  if (!merchant) redirect("/home/sign-in");
  const isv = await getAccount(db, merchant.isvAccountId);
  return { db, merchant, isv };
}
