import type { Context } from "hono";

import type { AccountRow } from "../db/schema";
import { getAccount } from "../domain/accounts/get-account";
import type { Authorized } from "./middleware/auth";

/** The authenticated caller's own account, read once per request (API-key authentication has it already). */
export async function callerAccount(c: Context<Authorized>): Promise<AccountRow> {
  const accountId = c.get("principal").accountId;
  const known = c.get("callerAccount");
  if (known && known.id === accountId) return known;
  const account = await getAccount(c.get("db"), accountId);
  c.set("callerAccount", account);
  return account;
}
