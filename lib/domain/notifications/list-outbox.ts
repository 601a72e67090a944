import { desc, eq } from "drizzle-orm";

import { outbox } from "../../db/schema";
import { type DbOrTx } from "../../db/types";

/** The outbox, newest first: one account's messages, or every message (operator). */
export async function listOutbox(db: DbOrTx, options: { accountId?: string; limit?: number }) {
  const query = db.select().from(outbox);
  return (options.accountId ? query.where(eq(outbox.accountId, options.accountId)) : query)
    .orderBy(desc(outbox.createdAt))
    .limit(options.limit ?? 50);
}
