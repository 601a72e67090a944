import type { DbOrTx } from "../../db/client";
import { events } from "../../db/schema";
import { createId } from "../../ids";
import { sql, type SQL } from "drizzle-orm";
import { fanOutEvents, HOST_KEY_SQL } from "../webhooks/fan-out";
import { jobTypes } from "../../jobs/job-types";
import { scopeOf, type EventType } from "../../events/catalogue";

type OneEvent = { accountId: string; type: EventType; objectId: string; data: Record<string, unknown> };

/**
 * The WITH clauses that record one event with one delivery and its job per subscribed webhook
 * (lib/events/catalogue.ts scopes), for a statement that may do more in the same WITH (creating a
 * merchant writes the merchant and its event in one statement). `data` is the event's payload as
 * SQL (a jsonb expression), so that it may read what an earlier clause of the statement made. A
 * delivery's id (and its job's) derive from the event and the webhook, which are unique together.
 */
export function eventClauses(input: Omit<OneEvent, "data"> & { id: string; data: SQL }): SQL {
  const delivery = jobTypes.webhook_delivery;
  return sql`
    recorded_event as (
      insert into events (id, account_id, type, object_id, data)
      values (${input.id}, ${input.accountId}, ${input.type}, ${input.objectId}, ${input.data})
    ),
    targets as (
      select id, url from webhooks
      where account_id = ${input.accountId} and status = 'enabled' and deleted_at is null
        and scopes @> jsonb_build_array(${scopeOf(input.type)}::text)
    ),
    event_deliveries as (
      insert into webhook_deliveries (id, webhook_id, account_id, event_id, next_attempt_at)
      select 'whd_' || substr(md5(${input.id} || targets.id), 1, 22), targets.id, ${input.accountId}, ${input.id}, now() from targets
      returning id, webhook_id
    ),
    event_jobs as (
      insert into jobs (id, type, payload, max_attempts, priority, concurrency_keys)
      select 'job_' || substr(md5('job' || event_deliveries.id), 1, 22), 'webhook_delivery', jsonb_build_object('delivery_id', event_deliveries.id),
        ${delivery.maxAttempts}, ${delivery.priority}, array['account:' || ${input.accountId}, ${HOST_KEY_SQL}]
      from event_deliveries join targets on targets.id = event_deliveries.webhook_id
    )`;
}

/**
 * Writes an event in the caller's transaction, with its deliveries and their jobs, in one
 * statement: the change, its event and its deliveries commit together or not at all, for one
 * round trip to the database.
 */
export async function recordEvent(tx: DbOrTx, input: OneEvent) {
  const id = createId("evt");
  await tx.execute(sql`with ${eventClauses({ ...input, id, data: sql`${JSON.stringify(input.data)}::jsonb` })} select 1`);
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
