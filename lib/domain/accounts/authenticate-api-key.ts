import { and, eq, isNull, sql } from "drizzle-orm";

import type { KeyPermissions } from "../../auth/permissions";
import type { AccountType } from "../../auth/principal";
import { constantTimeEqual, digestSecret } from "../../auth/secrets";
import { clock } from "../../clock";
import { preparedPerDb } from "../../db/prepared";
import { type AccountRow, accounts, apiKeys } from "../../db/schema";
import { type DbOrTx } from "../../db/types";
import { noteUse } from "./note-use";

export type AuthenticatedAccount = {
  accountId: string;
  accountType: AccountType;
  parentId: string | null;
  account: AccountRow;
  keyId: string;
  /** A restricted key's permissions; null for a standard key. */
  permissions: KeyPermissions | null;
};

/** The lookup, prepared once (the bench's bare server sends its very text: bench/bare-server.ts). */
export const keysBySid = preparedPerDb((db) =>
  db
    .select({
      account: accounts,
      digest: apiKeys.secretDigest,
      keyId: apiKeys.id,
      permissions: apiKeys.permissions,
      expiresAt: apiKeys.expiresAt,
    })
    .from(accounts)
    .innerJoin(apiKeys, and(eq(apiKeys.accountId, accounts.id), isNull(apiKeys.revokedAt)))
    .where(eq(accounts.sid, sql.placeholder("sid")))
    .prepare("auth_keys_by_sid"),
);

/** `account_sid:secret_key` → the account (its whole row: the request needs no second look), or null. One indexed query; digests compared in constant time. */
export async function authenticateApiKey(
  db: DbOrTx,
  sid: string,
  secret: string,
): Promise<AuthenticatedAccount | null> {
  const rows = await keysBySid(db).execute({ sid });
  const digest = digestSecret(secret);
  let match: AuthenticatedAccount | null = null;
  // Compare against every active key (usually one) so the time does not depend on which matched.
  const now = clock.ms();
  for (const row of rows) {
    // A rolled key past its expiry opens nothing (compared all the same).
    const live = row.expiresAt === null || row.expiresAt.getTime() > now;
    if (constantTimeEqual(row.digest, digest) && live)
      match = {
        accountId: row.account.id,
        accountType: row.account.type,
        parentId: row.account.parentId,
        account: row.account,
        keyId: row.keyId,
        permissions: row.permissions,
      };
  }
  if (match) {
    const keyId = match.keyId;
    noteUse(keyId, now, () =>
      db
        .update(apiKeys)
        .set({ lastUsedAt: new Date(now) })
        .where(eq(apiKeys.id, keyId)),
    );
  }
  return match;
}
