import type { DbOrTx } from "../../db/client";
import { events } from "../../db/schema";
import { createId } from "../../ids";
import { sql } from "drizzle-orm";
import { fanOutEvents, HOST_KEY_SQL } from "../webhooks/fan-out";
import { jobTypes } from "../../jobs/job-types";
import { scopeOf, type EventType } from "../../events/catalogue";

/**
 * Writes an event in the caller's transaction, with one delivery and its job per subscribed
 * webhook (lib/events/catalogue.ts scopes), in one statement: the change, its event and its
 * deliveries commit together or not at all, for one round trip to the database. A delivery's id
 * (and its job's) derive from the event and the webhook, which are unique together.
 */
export async function recordEvent(tx: DbOrTx, input: { accountId: string; type: EventType; objectId: string; data: Record<string, unknown> }) {
  const id = createId("evt");
  const delivery = jobTypes.webhook_delivery;
  await tx.execute(sql`
    with event as (
      insert into events (id, account_id, type, object_id, data)
      values (${id}, ${input.accountId}, ${input.type}, ${input.objectId}, ${JSON.stringify(input.data)}::jsonb)
    ),
    targets as (
      select id, url from webhooks
      where account_id = ${input.accountId} and status = 'enabled' and deleted_at is null
        and scopes @> jsonb_build_array(${scopeOf(input.type)}::text)
    ),
    deliveries as (
      insert into webhook_deliveries (id, webhook_id, account_id, event_id, next_attempt_at)
      select 'whd_' || substr(md5(${id} || targets.id), 1, 22), targets.id, ${input.accountId}, ${id}, now() from targets
      returning id, webhook_id
    )
    insert into jobs (id, type, payload, max_attempts, priority, concurrency_keys)
    select 'job_' || substr(md5('job' || deliveries.id), 1, 22), 'webhook_delivery', jsonb_build_object('delivery_id', deliveries.id),
      ${delivery.maxAttempts}, ${delivery.priority}, array['account:' || ${input.accountId}, ${HOST_KEY_SQL}]
    from deliveries join targets on targets.id = deliveries.webhook_id`);
  return id;
}

type EventInput = { accountId: string; type: EventType; objectId: string; data: Record<string, unknown> };

/** Many events in the caller's transaction (multi-row inserts), with their deliveries: for batches like a settlement. */
export async function recordEvents(tx: DbOrTx, inputs: EventInput[]) {
  const rows = inputs.map((input) => ({ id: createId("evt"), accountId: input.accountId, type: input.type, objectId: input.objectId, data: input.data }));
  for (let i = 0; i < rows.length; i += 500) await tx.insert(events).values(rows.slice(i, i + 500));
  await fanOutEvents(
    tx,
    rows.map((r) => ({ id: r.id, accountId: r.accountId, scope: scopeOf(r.type) })),
  );
  return rows.map((r) => r.id);
}
