import { eq, sql } from "drizzle-orm";

import { preparedPerDb } from "../../db/prepared";
import { type AccountRow, accounts } from "../../db/schema";
import { type DbOrTx } from "../../db/types";
import { notFound } from "../../errors";

const accountById = preparedPerDb((db) =>
  db
    .select()
    .from(accounts)
    .where(eq(accounts.id, sql.placeholder("id")))
    .prepare("account_by_id"),
);

/** The caller's own account: the id always comes from the authenticated principal. */
export async function getAccount(db: DbOrTx, accountId: string): Promise<AccountRow> {
  const [account] = await accountById(db).execute({ id: accountId });
  if (!account) throw notFound("account", accountId);
  return account;
}
