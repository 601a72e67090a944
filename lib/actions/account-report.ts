"use server";
import { headers } from "next/headers";
import { redirect } from "next/navigation";

import { CLIENT_ADDRESS_HEADER } from "@/lib/auth/sign-in-limiter";
import { getDatabase } from "@/lib/db/client";
import { reportAccountChange } from "@/lib/domain/accounts/payout-account-change";

/** "This wasn't us", pressed: the ISV's payouts freeze, once (a used, ended or expired link: the page says so). */
export async function reportAccountChangeAction(token: string) {
  const { db } = await getDatabase();
  const address = (await headers()).get(CLIENT_ADDRESS_HEADER);
  const frozen = await reportAccountChange(db, token, address);
  redirect(frozen ? `/sign-in/report/${token}?done=1` : `/sign-in/report/${token}`);
}
