import { desc, eq } from "drizzle-orm";

import { accounts } from "../../db/schema";
import { type DbOrTx } from "../../db/types";

export async function listIsvs(db: DbOrTx) {
  return db
    .select({ id: accounts.id, sid: accounts.sid, name: accounts.name, createdAt: accounts.createdAt })
    .from(accounts)
    .where(eq(accounts.type, "isv"))
    .orderBy(desc(accounts.createdAt));
}
