import { and, eq } from "drizzle-orm";

import { clock } from "../../clock";
import { webhookDeliveries, webhooks } from "../../db/schema";
import { type Db } from "../../db/types";
import { recordAudit } from "../audit/record-audit";
import { findWebhook } from "./find-webhook";

/** Deleting stops deliveries at once: pending ones are canceled (their jobs find them so). */
export async function deleteWebhook(db: Db, accountId: string, webhookId: string) {
  return db.transaction(async (tx) => {
    const row = await findWebhook(tx, accountId, webhookId);
    await tx.update(webhooks).set({ deletedAt: clock.now() }).where(eq(webhooks.id, row.id));
    await tx
      .update(webhookDeliveries)
      .set({ status: "canceled", nextAttemptAt: null })
      .where(and(eq(webhookDeliveries.webhookId, row.id), eq(webhookDeliveries.status, "pending")));
    await recordAudit(tx, { accountId, action: "webhook.deleted", resourceId: row.id });
    return row;
  });
}
