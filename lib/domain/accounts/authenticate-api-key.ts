import { and, eq, isNull, sql } from "drizzle-orm";

import type { AccountType } from "../../auth/principal";
import { constantTimeEqual, digestSecret } from "../../auth/secrets";
import { preparedPerDb } from "../../db/prepared";
import { type AccountRow, accounts, apiKeys } from "../../db/schema";
import { type DbOrTx } from "../../db/types";

export type AuthenticatedAccount = {
  accountId: string;
  accountType: AccountType;
  parentId: string | null;
  account: AccountRow;
};

const keysBySid = preparedPerDb((db) =>
  db
    .select({ account: accounts, digest: apiKeys.secretDigest })
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
  for (const row of rows) {
    if (constantTimeEqual(row.digest, digest))
      match = {
        accountId: row.account.id,
        accountType: row.account.type,
        parentId: row.account.parentId,
        account: row.account,
      };
  }
  return match;
}
