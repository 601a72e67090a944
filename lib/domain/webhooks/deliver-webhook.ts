import { and, eq } from "drizzle-orm";
import type { Db, DbOrTx } from "../../db/client";
import { events, webhookAttempts, webhookDeliveries, webhooks } from "../../db/schema";
import { createId } from "../../ids";
import { decryptField } from "../../crypto/field-encryption";
import { env } from "../../env";
import { RetryLater, type JobRow } from "../../jobs/runner";
import { jobTypes, type JobPayload } from "../../jobs/job-types";
import { sendWebhook } from "../../webhooks/send";
import { signedHeaders } from "../../webhooks/sign";
import { serializeEvent } from "../../serializers/event";

/**
 * One try of one delivery. 2xx: delivered. 410: the endpoint is disabled. Anything else (or no
 * answer in 10 s): tried again on the schedule, 8 tries over about a day, every try recorded.
 */
export async function deliverWebhook(db: Db, { delivery_id: deliveryId }: JobPayload<"webhook_delivery">, job: JobRow) {
  const [delivery] = await db.select().from(webhookDeliveries).where(eq(webhookDeliveries.id, deliveryId));
  if (!delivery || delivery.status !== "pending") return;
  const [webhook] = await db.select().from(webhooks).where(eq(webhooks.id, delivery.webhookId));
  if (!webhook || webhook.deletedAt || webhook.status !== "enabled") {
    await db.update(webhookDeliveries).set({ status: "canceled", nextAttemptAt: null }).where(eq(webhookDeliveries.id, deliveryId));
    return;
  }
  const [event] = await db.select().from(events).where(eq(events.id, delivery.eventId));
  if (!event) return;

  const body = JSON.stringify(serializeEvent(event));
  const headers = signedHeaders(decryptField(webhook.secret), event.id, body);
  const result = await sendWebhook(webhook.url, body, headers, { publicOnly: env.APP_ENV === "production" });
  const attempts = delivery.attempts + 1;
  await db.insert(webhookAttempts).values({
    id: createId("wha"),
    deliveryId,
    statusCode: result.statusCode,
    durationMs: result.durationMs,
    error: result.error,
    responseExcerpt: result.excerpt,
  });
  const ok = result.statusCode !== null && result.statusCode >= 200 && result.statusCode < 300;
  if (ok) {
    await db
      .update(webhookDeliveries)
      .set({ status: "succeeded", attempts, lastStatusCode: result.statusCode, deliveredAt: new Date(), nextAttemptAt: null })
      .where(eq(webhookDeliveries.id, deliveryId));
    return;
  }
  if (result.statusCode === 410) {
    await db.transaction(async (tx) => {
      await tx.update(webhooks).set({ status: "disabled", disabledReason: "endpoint_gone" }).where(eq(webhooks.id, webhook.id));
      await tx
        .update(webhookDeliveries)
        .set({ status: "failed", attempts, lastStatusCode: 410, nextAttemptAt: null })
        .where(eq(webhookDeliveries.id, deliveryId));
    });
    return;
  }
  const last = job.attempts >= job.maxAttempts;
  await db
    .update(webhookDeliveries)
    .set({
      status: last ? "failed" : "pending",
      attempts,
      lastStatusCode: result.statusCode,
      nextAttemptAt: last ? null : new Date(Date.now() + jobTypes.webhook_delivery.backoffMs(job.attempts)),
    })
    .where(eq(webhookDeliveries.id, deliveryId));
  if (!last) throw new RetryLater(result.error ?? `answered ${result.statusCode}`);
}

/** The delivery's job ended for good without an answer recorded as final: the delivery failed (and can be replayed). */
export async function giveUpDelivery(tx: DbOrTx, { delivery_id }: JobPayload<"webhook_delivery">) {
  await tx
    .update(webhookDeliveries)
    .set({ status: "failed", nextAttemptAt: null })
    .where(and(eq(webhookDeliveries.id, delivery_id), eq(webhookDeliveries.status, "pending")));
}
