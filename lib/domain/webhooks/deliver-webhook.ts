import { and, eq, sql } from "drizzle-orm";
import type { Db, DbOrTx } from "../../db/client";
import { events, webhookDeliveries, webhooks } from "../../db/schema";
import { createId } from "../../ids";
import { decryptField } from "../../crypto/field-encryption";
import { env } from "../../env";
import { currentClaim, RetryLater, type JobRow } from "../../jobs/runner";
import { jobTypes, type JobPayload } from "../../jobs/job-types";
import { sendWebhook } from "../../webhooks/send";
import { signedHeaders } from "../../webhooks/sign";
import { serializeEvent } from "../../serializers/event";

/**
 * One try of one delivery. 2xx: delivered. 410: the endpoint is disabled. Anything else (or no
 * answer in 10 s): tried again on the schedule, 8 tries over about a day, every try recorded.
 */
export async function deliverWebhook(db: Db, { delivery_id: deliveryId }: JobPayload<"webhook_delivery">, job: JobRow): Promise<void | "recorded"> {
  // The delivery, its webhook and its event in one round trip.
  const [row] = await db
    .select({ delivery: webhookDeliveries, webhook: webhooks, event: events })
    .from(webhookDeliveries)
    .leftJoin(webhooks, eq(webhooks.id, webhookDeliveries.webhookId))
    .leftJoin(events, eq(events.id, webhookDeliveries.eventId))
    .where(eq(webhookDeliveries.id, deliveryId));
  if (!row || row.delivery.status !== "pending") return;
  const { delivery, webhook, event } = row;
  if (!webhook || webhook.deletedAt || webhook.status !== "enabled") {
    await db.update(webhookDeliveries).set({ status: "canceled", nextAttemptAt: null }).where(eq(webhookDeliveries.id, deliveryId));
    return;
  }
  if (!event) return;

  const body = JSON.stringify(serializeEvent(event));
  const headers = signedHeaders(decryptField(webhook.secret), event.id, body);
  const result = await sendWebhook(webhook.url, body, headers, { publicOnly: true, allowLoopback: env.APP_ENV === "sandbox" });
  const attempts = delivery.attempts + 1;
  const attempt = sql`insert into webhook_attempts (id, delivery_id, status_code, duration_ms, error, response_excerpt)
    values (${createId("wha")}, ${deliveryId}, ${result.statusCode}, ${result.durationMs}, ${result.error}, ${result.excerpt})`;
  const ok = result.statusCode !== null && result.statusCode >= 200 && result.statusCode < 300;
  if (ok) {
    // The try, the delivery and the job recorded in one statement (one round trip, atomic).
    await db.execute(sql`
      with attempt as (${attempt}),
      delivery as (
        update webhook_deliveries set status = 'succeeded', attempts = ${attempts}, last_status_code = ${result.statusCode},
          delivered_at = now(), next_attempt_at = null
        where id = ${deliveryId}
      )
      update jobs set status = 'done', locked_at = null, last_error = null where ${currentClaim(job)}`);
    return "recorded";
  }
  await db.execute(attempt);
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
