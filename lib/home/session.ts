import "server-only";

import { cookies, headers } from "next/headers";
import { redirect } from "next/navigation";

import { asActor } from "../audit/actor";
import { CLIENT_ADDRESS_HEADER } from "../auth/sign-in-limiter";
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

/**
 * A home action as the signed-in merchant: every change it makes is audited under that merchant
 * (via `home`), with the client's address.
 */
export async function asMerchant<T>(
  work: (home: Awaited<ReturnType<typeof requireMerchant>>) => Promise<T>,
): Promise<T> {
  const home = await requireMerchant();
  const address = (await headers()).get(CLIENT_ADDRESS_HEADER);
  return asActor({ type: "merchant", id: home.merchant.id, via: "home", clientAddress: address }, () => work(home));
}
