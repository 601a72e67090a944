import { type Placeholder, type SQL, sql } from "drizzle-orm";

import { currentActor } from "../../audit/actor";
import { type DeferredWrites, deferredWritesOf, withDeferredWrites } from "../../db/deferred-writes";
import { one } from "../../db/one";
import { compiledStatement } from "../../db/prepared";
import { type Db, type DbOrTx, type Tx } from "../../db/types";
import { type EventType, scopeOf } from "../../events/catalogue";
import { createId } from "../../ids";
import { jobsOfTypeFrom } from "../../jobs/job-types";
import { insertJobsFrom, jobsOfJson } from "../../jobs/queue";
import { insertOutboxOfJson } from "../../notifications/send-email";
import { HOST_KEY_SQL } from "../webhooks/fan-out";

type OneEvent = {
  accountId: string;
  type: EventType;
  objectId: string;
  data: Record<string, unknown>;
  /** The names of the fields the change touched, for its audit entry (never their values). */
  fields?: string[];
};

/**
 * The WITH clauses that record events, each with one delivery and its job per subscribed webhook
 * (lib/events/catalogue.ts scopes): one mechanism for one event and for a batch (a settlement's),
 * in a statement that may do more in the same WITH (creating a merchant writes the merchant and its
 * event in one statement). `source` is a query of rows (id, account_id, type, object_id, data,
 * scope, and ord: the order the events are numbered in); its `data` may read what an earlier clause
 * of the statement made. A delivery's id (and its job's) derive from the event and the webhook,
 * which are unique together.
 */
function eventsFrom(source: SQL): SQL {
  return sql`
    new_events as (${source}),
    recorded_events as (
      insert into events (id, account_id, type, object_id, data)
      select id, account_id, type, object_id, data from new_events order by ord
    ),
    recorded_audit as (
      insert into audit_logs (id, account_id, actor_type, actor_id, actor_via, action, resource_id, fields, request_id, client_address)
      select 'al_' || substr(md5(id), 1, 22), account_id, actor->>'type', actor->>'id', actor->>'via', type, object_id,
        coalesce(fields, '[]'::jsonb), actor->>'requestId', actor->>'clientAddress'
      from new_events where actor is not null and jsonb_typeof(actor) = 'object'
    ),
    targets as (
      select webhooks.id, webhooks.url, new_events.id as event_id, new_events.account_id from new_events
      join webhooks on webhooks.account_id = new_events.account_id and webhooks.status = 'enabled' and webhooks.deleted_at is null
        and webhooks.scopes @> jsonb_build_array(new_events.scope)
    ),
    event_deliveries as (
      insert into webhook_deliveries (id, webhook_id, account_id, event_id, next_attempt_at)
      select 'whd_' || substr(md5(targets.event_id || targets.id), 1, 22), targets.id, targets.account_id, targets.event_id, now() from targets
      returning id, webhook_id, event_id
    ),
    event_jobs as (${jobsOfTypeFrom(
      "webhook_delivery",
      sql`select substr(md5('job' || event_deliveries.id), 1, 22) as key, jsonb_build_object('delivery_id', event_deliveries.id) as payload,
        array['account:' || targets.account_id, ${HOST_KEY_SQL}] as concurrency_keys
      from event_deliveries join targets on targets.id = event_deliveries.webhook_id and targets.event_id = event_deliveries.event_id`,
    )})`;
}

/** The clauses for one event whose payload is a jsonb expression (see eventsFrom); its values may be placeholders. */
export function eventClauses(input: {
  id: string | Placeholder;
  accountId: string | Placeholder;
  type: EventType;
  objectId: string | Placeholder;
  data: SQL;
  /** The change's actor as jsonb (lib/audit/actor.ts; JSON null: none), audited in the same statement. */
  actor: Placeholder;
}): SQL {
  return eventsFrom(
    sql`select ${input.id}::text as id, ${input.accountId}::text as account_id, ${input.type}::text as type, ${input.objectId}::text as object_id, ${input.data} as data, ${scopeOf(input.type)}::text as scope, 1 as ord, ${input.actor}::jsonb as actor, null::jsonb as fields`,
  );
}

/**
 * The events of a JSON array with their deliveries and jobs, and a transaction's deferred jobs and
 * messages (lib/db/deferred-writes.ts; empty arrays when none): one statement, its text built once.
 */
const recordStatement = compiledStatement(
  "record_events",
  () =>
    sql`with ${eventsFrom(sql`
    select e->>'id' as id, e->>'account_id' as account_id, e->>'type' as type, e->>'object_id' as object_id, e->'data' as data, e->>'scope' as scope, ord,
      e->'actor' as actor, e->'fields' as fields
    from jsonb_array_elements(${sql.placeholder("batch")}::jsonb) with ordinality as t(e, ord)`)},
    deferred_jobs as (${insertJobsFrom(jobsOfJson(sql`${sql.placeholder("jobs")}`))}),
    deferred_mail as (${insertOutboxOfJson(sql`${sql.placeholder("mail")}`)})
    select 1`,
);

/**
 * Writes an event in the caller's transaction, with its deliveries and their jobs and (when an
 * actor makes the change) its audit entry, in one statement: the change, its event, its deliveries
 * and its audit entry commit together or not at all, for one round trip to the database.
 */
export async function recordEvent(tx: DbOrTx, input: OneEvent) {
  return one(await recordEvents(tx, [input]));
}

type EventRow = {
  id: string;
  account_id: string;
  type: EventType;
  object_id: string;
  data: Record<string, unknown>;
  scope: string;
  actor: unknown;
  fields: string[];
};

/** A transaction whose events (and jobs and messages: lib/db/deferred-writes.ts) are written at its end, in one statement. */
export function transactionWithEvents<T>(db: Db, work: (tx: Tx) => Promise<T>): Promise<T> {
  return db.transaction((tx) =>
    withDeferredWrites(
      tx,
      () => work(tx),
      (writes) => flush(tx, writes),
    ),
  );
}

/** Many events in the caller's transaction (a settlement's): the same statement, 500 events at a time. */
export async function recordEvents(tx: DbOrTx, inputs: OneEvent[]) {
  const actor = currentActor();
  const rows: EventRow[] = inputs.map((input) => ({
    id: createId("evt"),
    account_id: input.accountId,
    type: input.type,
    object_id: input.objectId,
    data: input.data,
    scope: scopeOf(input.type),
    // The change's actor (the API's caller, a page's user, the CLI): its audit entry is written by
    // the same statement as the event. Work without one (the worker's) writes none.
    actor: actor ?? null,
    fields: input.fields ?? [],
  }));
  const later = deferredWritesOf(tx);
  if (later) later.events.push(...rows);
  else await flush(tx, { events: rows, jobs: [], mail: [] });
  return rows.map((r) => r.id);
}

/** The events, 500 a statement, the jobs and messages with the first. */
async function flush(tx: DbOrTx, { events, jobs, mail }: DeferredWrites) {
  if (events.length === 0 && jobs.length === 0 && mail.length === 0) return;
  for (let i = 0; i === 0 || i < events.length; i += 500) {
    const first = i === 0;
    await recordStatement(tx, {
      batch: JSON.stringify(events.slice(i, i + 500)),
      jobs: first ? JSON.stringify(jobs) : "[]",
      mail: first ? JSON.stringify(mail) : "[]",
    });
  }
}
