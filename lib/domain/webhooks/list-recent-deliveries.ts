import { desc, eq, sql } from "drizzle-orm";

import { events, webhookAttempts, webhookDeliveries } from "../../db/schema";
import { type DbOrTx } from "../../db/types";

/** The account's latest deliveries across its webhooks, with their event's type and the last try's error (the dashboard's developers page). */
export async function listRecentDeliveries(db: DbOrTx, accountId: string, limit = 50) {
  const lastError = sql<
    string | null
  >`(select ${webhookAttempts.error} from ${webhookAttempts} where ${webhookAttempts.deliveryId} = ${webhookDeliveries.id} order by ${webhookAttempts.attemptedAt} desc limit 1)`;
  return db
    .select({
      id: webhookDeliveries.id,
      webhookId: webhookDeliveries.webhookId,
      status: webhookDeliveries.status,
      attempts: webhookDeliveries.attempts,
      lastStatusCode: webhookDeliveries.lastStatusCode,
      nextAttemptAt: webhookDeliveries.nextAttemptAt,
      createdAt: webhookDeliveries.createdAt,
      eventType: events.type,
      lastError,
    })
    .from(webhookDeliveries)
    .leftJoin(events, eq(events.id, webhookDeliveries.eventId))
    .where(eq(webhookDeliveries.accountId, accountId))
    .orderBy(desc(webhookDeliveries.createdAt))
    .limit(limit);
}
