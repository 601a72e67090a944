import { eq } from "drizzle-orm";
import type { DbOrTx } from "../../db/client";
import { accounts } from "../../db/schema";
import { notFound } from "../../api/errors";

/** The caller's own account: the id always comes from the authenticated principal. */
export async function getAccount(db: DbOrTx, accountId: string) {
  const [account] = await db.select().from(accounts).where(eq(accounts.id, accountId));
  if (!account) throw notFound("account", accountId);
  return account;
}
export type AccountRow = Awaited<ReturnType<typeof getAccount>>;
