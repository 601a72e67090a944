import { and, asc, eq } from "drizzle-orm";

import { clock } from "../../clock";
import { one } from "../../db/one";
import { webhookAttempts, webhookDeliveries, webhooks } from "../../db/schema";
import { type Db } from "../../db/types";
import { invalidState, notFound } from "../../errors";
import { enqueueJob } from "../../jobs/job-types";
import { wakeWorkers } from "../../jobs/runner";
import { recordAudit } from "../audit/record-audit";
import { deliveryKeys } from "./fan-out";
import { findWebhook } from "./find-webhook";

/** Manual replay: the delivery goes out again now (the same event, the same webhook-id). */
export async function retryDelivery(db: Db, accountId: string, webhookId: string, deliveryId: string) {
  const result = await db.transaction(async (tx) => {
    const webhook = await findWebhook(tx, accountId, webhookId);
    const [delivery] = await tx
      .select()
      .from(webhookDeliveries)
      .where(and(eq(webhookDeliveries.webhookId, webhook.id), eq(webhookDeliveries.id, deliveryId)))
      .for("update");
    if (!delivery) throw notFound("delivery", deliveryId, "delivery_id");
    if (delivery.status === "pending") throw invalidState("This delivery is already waiting for its next try");
    // Replaying to an endpoint disabled by a 410 turns it back on: the ISV says it is back.
    if (webhook.status === "disabled")
      await tx.update(webhooks).set({ status: "enabled", disabledReason: null }).where(eq(webhooks.id, webhook.id));
    const updated = one(
      await tx
        .update(webhookDeliveries)
        .set({ status: "pending", nextAttemptAt: clock.now() })
        .where(eq(webhookDeliveries.id, delivery.id))
        .returning(),
    );
    await enqueueJob(
      tx,
      "webhook_delivery",
      { delivery_id: delivery.id },
      { concurrencyKeys: deliveryKeys(accountId, webhook.url) },
    );
    const attempts = await tx
      .select()
      .from(webhookAttempts)
      .where(eq(webhookAttempts.deliveryId, delivery.id))
      .orderBy(asc(webhookAttempts.attemptedAt));
    await recordAudit(tx, { accountId, action: "webhook_delivery.retried", resourceId: delivery.id });
    return { delivery: updated, attempts };
  });
  wakeWorkers();
  return result;
}
