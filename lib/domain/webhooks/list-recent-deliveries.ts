import { desc, eq } from "drizzle-orm";
import type { DbOrTx } from "../../db/client";
import { webhookDeliveries } from "../../db/schema";

/** The account's latest deliveries across its webhooks (the dashboard's developers page). */
export async function listRecentDeliveries(db: DbOrTx, accountId: string, limit = 50) {
  return db.select().from(webhookDeliveries).where(eq(webhookDeliveries.accountId, accountId)).orderBy(desc(webhookDeliveries.createdAt)).limit(limit);
}
