import { and, desc, eq, isNull } from "drizzle-orm";

import { webhooks } from "../../db/schema";
import { type DbOrTx } from "../../db/types";

export async function listWebhooks(db: DbOrTx, accountId: string) {
  return db
    .select()
    .from(webhooks)
    .where(and(eq(webhooks.accountId, accountId), isNull(webhooks.deletedAt)))
    .orderBy(desc(webhooks.createdAt));
}
