import { desc, eq } from "drizzle-orm";
import type { DbOrTx } from "../../db/client";
import { accounts } from "../../db/schema";

export async function listIsvs(db: DbOrTx) {
  return db
    .select({ id: accounts.id, sid: accounts.sid, name: accounts.name, createdAt: accounts.createdAt })
    .from(accounts)
    .where(eq(accounts.type, "isv"))
    .orderBy(desc(accounts.createdAt));
}
