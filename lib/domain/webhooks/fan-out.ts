import { and, eq, isNull } from "drizzle-orm";
import type { DbOrTx } from "../../db/client";
import { webhookDeliveries, webhooks } from "../../db/schema";
import { createId } from "../../ids";
import { enqueueJob } from "../../jobs/job-types";
import type { WebhookScope } from "../../events/catalogue";

/** In the event's transaction: one delivery (and its job) per enabled webhook subscribed to the event's scope (lib/events/catalogue.ts). */
export async function fanOutEvent(tx: DbOrTx, event: { id: string; accountId: string; scope: WebhookScope }) {
  const scope = event.scope;
  const targets = await tx
    .select({ id: webhooks.id, scopes: webhooks.scopes })
    .from(webhooks)
    .where(and(eq(webhooks.accountId, event.accountId), eq(webhooks.status, "enabled"), isNull(webhooks.deletedAt)));
  for (const target of targets.filter((t) => t.scopes.includes(scope))) {
    const deliveryId = createId("whd");
    await tx
      .insert(webhookDeliveries)
      .values({ id: deliveryId, webhookId: target.id, accountId: event.accountId, eventId: event.id, nextAttemptAt: new Date() });
    await enqueueJob(tx, "webhook_delivery", { delivery_id: deliveryId });
  }
}
