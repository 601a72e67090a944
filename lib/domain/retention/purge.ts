import { and, inArray, lt, sql } from "drizzle-orm";

import { clock } from "../../clock";
import {
  auditLogs,
  cardTokens,
  events,
  idempotencyKeys,
  jobs,
  outbox,
  userSessions,
  webhookAttempts,
  webhookDeliveries,
} from "../../db/schema";
import { type Db, type DbOrTx } from "../../db/types";
import { enqueueJob, type JobPayload } from "../../jobs/job-types";
import { log } from "../../log";

// What the platform keeps, and for how long (docs/decisions.md). Money (charges, refunds,
// settlements, statements), merchants and accounts are never purged.
export const RETENTION = {
  /** Idempotency keys answer replays for 24 hours (docs/reference.md section 3). */
  idempotencyKeysMs: 24 * 3600_000,
  /** Finished jobs, finished webhook deliveries and their attempts. */
  operationsMs: 30 * 24 * 3600_000,
  /** Events stay listable (GET /v1/events) for reconciliation. */
  eventsMs: 90 * 24 * 3600_000,
  /** Card and bank tokens live 30 minutes; kept a day after for support. */
  tokensMs: 24 * 3600_000,
  /** Onboarding links live at most 7 days: older messages lose the link's token. */
  outboxLinksMs: 7 * 24 * 3600_000,
  outboxMs: 90 * 24 * 3600_000,
  /** The audit log is kept one year (docs/reference.md section 17). */
  auditLogsMs: 365 * 24 * 3600_000,
} as const;

const DAY_MS = 24 * 3600_000;

/** The next 03:00 UTC after `from` (after the night's settlement and statements). */
export function nextPurgeAt(from = clock.now()) {
  const at = new Date(Date.UTC(from.getUTCFullYear(), from.getUTCMonth(), from.getUTCDate(), 3));
  return at > from ? at : new Date(at.getTime() + DAY_MS);
}

/** One `retention_purge` job per day, keyed by its date: any number of instances ask, one exists. */
export async function schedulePurge(db: DbOrTx, from = clock.now()) {
  const at = nextPurgeAt(from);
  await enqueueJob(
    db,
    "retention_purge",
    { at: at.toISOString() },
    { runAt: at, key: `retention_purge_${at.toISOString().slice(0, 10)}` },
  );
}

/** Deletes what is past its retention and strips link tokens from old messages; answers the counts. */
export async function purgeExpired(db: Db, now = clock.now()) {
  const before = (ms: number) => new Date(now.getTime() - ms);
  const counts: Record<string, number> = {};
  const count = async (name: string, rows: Promise<unknown[]>) => {
    counts[name] = (await rows).length;
  };
  // The one path that deletes audit entries: its trigger refuses any other (migration 0020).
  await count(
    "audit_logs",
    db.transaction(async (tx) => {
      await tx.execute(sql`set local app.audit_purge = 'on'`);
      return tx
        .delete(auditLogs)
        .where(lt(auditLogs.createdAt, before(RETENTION.auditLogsMs)))
        .returning({ id: auditLogs.id });
    }),
  );
  await count(
    "idempotency_keys",
    db
      .delete(idempotencyKeys)
      .where(lt(idempotencyKeys.createdAt, before(RETENTION.idempotencyKeysMs)))
      .returning({ k: idempotencyKeys.key }),
  );
  await count(
    "jobs",
    db
      .delete(jobs)
      .where(and(inArray(jobs.status, ["done", "failed"]), lt(jobs.createdAt, before(RETENTION.operationsMs))))
      .returning({ id: jobs.id }),
  );
  await count(
    "webhook_attempts",
    db
      .delete(webhookAttempts)
      .where(lt(webhookAttempts.attemptedAt, before(RETENTION.operationsMs)))
      .returning({ id: webhookAttempts.id }),
  );
  await count(
    "webhook_deliveries",
    db
      .delete(webhookDeliveries)
      .where(
        and(
          inArray(webhookDeliveries.status, ["succeeded", "failed", "canceled"]),
          lt(webhookDeliveries.createdAt, before(RETENTION.operationsMs)),
        ),
      )
      .returning({ id: webhookDeliveries.id }),
  );
  // An event still being delivered stays, whatever its age.
  await count(
    "events",
    db
      .delete(events)
      .where(
        and(
          lt(events.createdAt, before(RETENTION.eventsMs)),
          sql`not exists (select 1 from ${webhookDeliveries} d where d.event_id = ${events.id} and d.status = 'pending')`,
        ),
      )
      .returning({ id: events.id }),
  );
  // A dashboard sign-in's row once its token has expired (a day after, for support).
  await count(
    "user_sessions",
    db
      .delete(userSessions)
      .where(lt(userSessions.expiresAt, before(RETENTION.tokensMs)))
      .returning({ id: userSessions.id }),
  );
  await count(
    "card_tokens",
    db
      .delete(cardTokens)
      .where(lt(cardTokens.expiresAt, before(RETENTION.tokensMs)))
      .returning({ id: cardTokens.id }),
  );
  await count(
    "outbox",
    db
      .delete(outbox)
      .where(lt(outbox.createdAt, before(RETENTION.outboxMs)))
      .returning({ id: outbox.id }),
  );
  const redact = (column: typeof outbox.text | typeof outbox.html) =>
    sql`regexp_replace(${column}, '/onboard/[A-Za-z0-9_-]+', '/onboard/[redacted]', 'g')`;
  await count(
    "outbox_links_redacted",
    db
      .update(outbox)
      .set({ text: redact(outbox.text), html: redact(outbox.html) })
      .where(
        and(
          lt(outbox.createdAt, before(RETENTION.outboxLinksMs)),
          sql`(${outbox.text} ~ '/onboard/[A-Za-z0-9_-]{20,}' or ${outbox.html} ~ '/onboard/[A-Za-z0-9_-]{20,}')`,
        ),
      )
      .returning({ id: outbox.id }),
  );
  return counts;
}

/** The job's handler: purge, then queue tomorrow's. */
export async function runPurge(db: Db, { at }: JobPayload<"retention_purge">) {
  const counts = await purgeExpired(db);
  log.info({ counts }, "retention purge");
  await schedulePurge(db, new Date(Math.max(Date.parse(at), clock.ms())));
}
