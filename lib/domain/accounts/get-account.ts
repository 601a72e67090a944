import { eq, sql } from "drizzle-orm";
import type { DbOrTx } from "../../db/client";
import { accounts } from "../../db/schema";
import { notFound } from "../../errors";
import { preparedPerDb } from "../../db/prepared";

const accountById = preparedPerDb((db) =>
  db
    .select()
    .from(accounts)
    .where(eq(accounts.id, sql.placeholder("id")))
    .prepare("account_by_id"),
);

/** The caller's own account: the id always comes from the authenticated principal. */
export async function getAccount(db: DbOrTx, accountId: string) {
  const [account] = await accountById(db).execute({ id: accountId });
  if (!account) throw notFound("account", accountId);
  return account;
}
export type AccountRow = Awaited<ReturnType<typeof getAccount>>;
