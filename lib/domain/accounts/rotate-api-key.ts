import { and, eq, isNull } from "drizzle-orm";

import { digestSecret, generateSecretKey } from "../../auth/secrets";
import { clock } from "../../clock";
import { accounts, apiKeys } from "../../db/schema";
import { type Db, type DbOrTx } from "../../db/types";
import { notFound } from "../../errors";
import { createId } from "../../ids";
import { recordAudit } from "../audit/record-audit";

/** Replaces the account's secret key; the old one stops working at once. */
export async function rotateApiKey(db: Db, accountId: string, live: boolean) {
  return db.transaction((tx) => rotateApiKeyIn(tx, accountId, live));
}

/**
 * The same, in the caller's transaction; `homeSessionId`: a merchant's key made in its home, by that
 * session (such keys end with the ISV's sign-out-everywhere and a reported change).
 */
export async function rotateApiKeyIn(
  tx: DbOrTx,
  accountId: string,
  live: boolean,
  homeSessionId: string | null = null,
) {
  const secretKey = generateSecretKey(live);
  const [account] = await tx
    .select({ sid: accounts.sid, type: accounts.type, parentId: accounts.parentId })
    .from(accounts)
    .where(eq(accounts.id, accountId))
    .for("update");
  if (!account) throw notFound("account", accountId);
  await tx
    .update(apiKeys)
    .set({ revokedAt: clock.now() })
    .where(and(eq(apiKeys.accountId, accountId), isNull(apiKeys.revokedAt)));
  await tx.insert(apiKeys).values({
    id: createId("key"),
    accountId,
    secretDigest: digestSecret(secretKey),
    last4: secretKey.slice(-4),
    homeSessionId,
  });
  // A merchant's own key is its ISV's to know about.
  await recordAudit(tx, {
    accountId: account.parentId && account.type === "merchant" ? account.parentId : accountId,
    action: "api_key.rotated",
    resourceId: accountId,
  });
  return { account_id: accountId, account_sid: account.sid, secret_key: secretKey };
}
