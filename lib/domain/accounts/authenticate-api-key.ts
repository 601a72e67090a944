import { and, eq, isNull, sql } from "drizzle-orm";

import type { KeyPermissions } from "../../auth/permissions";
import type { AccountType } from "../../auth/principal";
import { constantTimeEqual, digestSecret } from "../../auth/secrets";
import { clock } from "../../clock";
import { preparedPerDb } from "../../db/prepared";
import { type AccountRow, accounts, apiKeys } from "../../db/schema";
import { type DbOrTx } from "../../db/types";
import { log } from "../../log";

export type AuthenticatedAccount = {
  accountId: string;
  accountType: AccountType;
  parentId: string | null;
  account: AccountRow;
  keyId: string;
  /** A restricted key's permissions; null for a standard key. */
  permissions: KeyPermissions | null;
};

const keysBySid = preparedPerDb((db) =>
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
  if (match) noteKeyUse(db, match.keyId, now);
  return match;
}

/** When each key's last use was written (this process): `last_used_at` is written at most once a minute per key. */
const lastWritten = new Map<string, number>();
const USE_WRITE_INTERVAL_MS = 60_000;

/** Records the key's use off the request's path (a failure to write it fails nothing). */
function noteKeyUse(db: DbOrTx, keyId: string, now: number) {
  const before = lastWritten.get(keyId);
  if (before !== undefined && now - before < USE_WRITE_INTERVAL_MS) return;
  lastWritten.set(keyId, now);
  if (lastWritten.size > 10_000) lastWritten.clear();
  void db
    .update(apiKeys)
    .set({ lastUsedAt: new Date(now) })
    .where(eq(apiKeys.id, keyId))
    .catch((error: unknown) => log.warn({ err: error, keyId }, "api key last_used_at not written"));
}
