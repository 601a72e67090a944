import { and, eq, inArray, sql } from "drizzle-orm";

import { clock } from "../../clock";
import { decryptField } from "../../crypto/field-encryption";
import type { EventRow, JobRow, WebhookDeliveryRow, WebhookRow } from "../../db/schema";
import { events, webhookDeliveries, webhooks } from "../../db/schema";
import { type Db, type DbOrTx } from "../../db/types";
import { env } from "../../env";
import { createId } from "../../ids";
import { coalescer } from "../../jobs/coalescer";
import { RetryLater } from "../../jobs/definition";
import { type JobPayload, jobTypes } from "../../jobs/job-types";
import { markJobsDoneFrom } from "../../jobs/queue";
import { deliveryOutcomes } from "../../ops/metrics";
import { serializeEvent } from "../../serializers/event";
import { API_VERSION_HEADER, FIRST_API_VERSION, toVersion } from "../../versions/versions";
import { sendWebhook } from "../../webhooks/send";
import { signedHeaders } from "../../webhooks/sign";

/** A delivery with its webhook and event, as the runner's batch read hands it to `deliverWebhook`. */
export type LoadedDelivery = { delivery: WebhookDeliveryRow; webhook: WebhookRow | null; event: EventRow | null };

const loadDeliveries = (db: Db, ids: string[]) =>
  db
    .select({ delivery: webhookDeliveries, webhook: webhooks, event: events })
    .from(webhookDeliveries)
    .leftJoin(webhooks, eq(webhooks.id, webhookDeliveries.webhookId))
    .leftJoin(events, eq(events.id, webhookDeliveries.eventId))
    .where(inArray(webhookDeliveries.id, ids));

/** The runner's batch read: every claimed delivery with its webhook and event, in one query. */
export async function preloadDeliveries(db: Db, batch: { job: JobRow; payload: JobPayload<"webhook_delivery"> }[]) {
  const rows = await loadDeliveries(
    db,
    batch.map((b) => b.payload.delivery_id),
  );
  const byDelivery = new Map(rows.map((r) => [r.delivery.id, r]));
  const out = new Map<string, LoadedDelivery>();
  for (const { job, payload } of batch) {
    const row = byDelivery.get(payload.delivery_id);
    if (row) out.set(job.id, row);
  }
  return out;
}

/**
 * One try of one delivery. 2xx: delivered. 410: the endpoint is disabled. Anything else (or no
 * answer in 10 s): tried again on the schedule, 8 tries over about a day, every try recorded.
 */
export async function deliverWebhook(
  db: Db,
  { delivery_id: deliveryId }: JobPayload<"webhook_delivery">,
  job: JobRow,
  preloaded?: LoadedDelivery,
): Promise<void | "recorded"> {
  // Read with its batch (preloadDeliveries), or alone.
  const row = preloaded ?? (await loadDeliveries(db, [deliveryId]))[0];
  if (!row || row.delivery.status !== "pending") return;
  const { delivery, webhook, event } = row;
  if (!webhook || webhook.deletedAt || webhook.status !== "enabled") {
    await db
      .update(webhookDeliveries)
      .set({ status: "canceled", nextAttemptAt: null })
      .where(eq(webhookDeliveries.id, deliveryId));
    return;
  }
  if (!event) return;

  // In the endpoint's API version (docs/reference.md section 22), said in its own header.
  const version = webhook.apiVersion ?? FIRST_API_VERSION;
  const body = JSON.stringify(toVersion(serializeEvent(event), version));
  const headers = { ...signedHeaders(decryptField(webhook.secret), event.id, body), [API_VERSION_HEADER]: version };
  const result = await sendWebhook(webhook.url, body, headers, {
    publicOnly: true,
    allowLoopback: env.APP_ENV === "sandbox",
    loopbackBodies: env.SANDBOX_WEBHOOK_LOOPBACK === "1",
  });
  const attempts = delivery.attempts + 1;
  const status = result.statusCode;
  if (status !== null && status >= 200 && status < 300) {
    // The try, the delivery and the job recorded together, with the other deliveries that
    // finished meanwhile: one statement for all of them (recordSuccesses).
    await successesFor(db).add({
      attempt_id: createId("wha"),
      delivery_id: deliveryId,
      status_code: status,
      duration_ms: result.durationMs,
      excerpt: result.excerpt,
      attempts,
      job_id: job.id,
      job_attempts: job.attempts,
    });
    deliveryOutcomes.inc({ outcome: "delivered" });
    return "recorded";
  }
  const attempt = sql`insert into webhook_attempts (id, delivery_id, status_code, duration_ms, error, response_excerpt)
    values (${createId("wha")}, ${deliveryId}, ${result.statusCode}, ${result.durationMs}, ${result.error}, ${result.excerpt})`;
  await db.execute(attempt);
  if (result.statusCode === 410) {
    await db.transaction(async (tx) => {
      await tx
        .update(webhooks)
        .set({ status: "disabled", disabledReason: "endpoint_gone" })
        .where(eq(webhooks.id, webhook.id));
      await tx
        .update(webhookDeliveries)
        .set({ status: "failed", attempts, lastStatusCode: 410, nextAttemptAt: null })
        .where(eq(webhookDeliveries.id, deliveryId));
    });
    deliveryOutcomes.inc({ outcome: "gone" });
    return;
  }
  const last = job.attempts >= job.maxAttempts;
  deliveryOutcomes.inc({ outcome: last ? "failed" : "retried" });
  await db
    .update(webhookDeliveries)
    .set({
      status: last ? "failed" : "pending",
      attempts,
      lastStatusCode: result.statusCode,
      nextAttemptAt: last ? null : new Date(clock.ms() + jobTypes.webhook_delivery.backoffMs(job.attempts)),
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

type Success = {
  attempt_id: string;
  delivery_id: string;
  status_code: number;
  duration_ms: number;
  excerpt: string | null;
  attempts: number;
  job_id: string;
  job_attempts: number;
};

// One coalescer per database handle.
const coalescers = new WeakMap<Db, ReturnType<typeof coalescer<Success>>>();
function successesFor(db: Db) {
  let c = coalescers.get(db);
  if (!c) {
    c = coalescer<Success>((items) => recordSuccesses(db, items));
    coalescers.set(db, c);
  }
  return c;
}

async function recordSuccesses(db: Db, items: Success[]) {
  await db.execute(sql`
    with input as (
      select * from jsonb_to_recordset(${JSON.stringify(items)}::jsonb) as t(
        attempt_id text, delivery_id text, status_code int, duration_ms int, excerpt text, attempts int, job_id text, job_attempts int)
    ),
    attempt as (
      insert into webhook_attempts (id, delivery_id, status_code, duration_ms, error, response_excerpt)
      select attempt_id, delivery_id, status_code, duration_ms, null, excerpt from input
    ),
    delivery as (
      update webhook_deliveries d set status = 'succeeded', attempts = input.attempts, last_status_code = input.status_code,
        delivered_at = now(), next_attempt_at = null
      from input where d.id = input.delivery_id
    )
    ${markJobsDoneFrom(sql`select job_id, job_attempts from input`)}`);
}
