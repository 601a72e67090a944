import { and, eq, inArray, isNull } from "drizzle-orm";
import type { DbOrTx } from "../../db/client";
import { webhookDeliveries, webhooks } from "../../db/schema";
import { createId } from "../../ids";
import { enqueueJob, enqueueJobs } from "../../jobs/job-types";
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

/**
 * The same for many events at once (a settlement's `charge.settled`s): one query for the accounts'
 * webhooks, then the deliveries and their jobs as multi-row inserts.
 */
export async function fanOutEvents(tx: DbOrTx, batch: { id: string; accountId: string; scope: WebhookScope }[]) {
  if (batch.length === 0) return;
  const accounts = [...new Set(batch.map((e) => e.accountId))];
  const targets = await tx
    .select({ id: webhooks.id, accountId: webhooks.accountId, scopes: webhooks.scopes })
    .from(webhooks)
    .where(and(inArray(webhooks.accountId, accounts), eq(webhooks.status, "enabled"), isNull(webhooks.deletedAt)));
  const deliveries = batch.flatMap((event) =>
    targets
      .filter((t) => t.accountId === event.accountId && t.scopes.includes(event.scope))
      .map((t) => ({ id: createId("whd"), webhookId: t.id, accountId: event.accountId, eventId: event.id, nextAttemptAt: new Date() })),
  );
  for (let i = 0; i < deliveries.length; i += 500) {
    const chunk = deliveries.slice(i, i + 500);
    await tx.insert(webhookDeliveries).values(chunk);
    await enqueueJobs(
      tx,
      "webhook_delivery",
      chunk.map((d) => ({ delivery_id: d.id })),
    );
  }
}
