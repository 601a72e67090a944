import { type SQL, sql } from "drizzle-orm";

import { clock } from "../clock";
import type { DbOrTx } from "../db/types";
import { createId } from "../ids";

// The `jobs` table's writes, all here: one INSERT (for one job from the application, or for the
// rows of a query inside a larger statement, like an event's deliveries) and one "done".

const columns = sql.raw("id, type, payload, run_at, max_attempts, priority, concurrency_keys");

/**
 * The one INSERT into `jobs`: the rows `source` selects, with the columns (id, type, payload,
 * run_at, max_attempts, priority, concurrency_keys). A job whose id is already there (a keyed job
 * enqueued again, by any instance) adds nothing. Usable as a statement or as a WITH clause's body.
 */
export function insertJobsFrom(source: SQL): SQL {
  return sql`insert into jobs (${columns}) select ${columns} from (${source}) as new_jobs on conflict (id) do nothing`;
}

/** The id of a keyed job: the same key makes the same job, whoever enqueues it. */
export const keyedJobId = (key: string) => `job_${key}`;
/** The same, in SQL, for keys computed in a statement. */
export const keyedJobIdSQL = (key: SQL) => sql`'job_' || ${key}`;

export type NewJob = {
  type: string;
  payload: Record<string, unknown>;
  runAt?: Date;
  maxAttempts?: number;
  priority?: number;
  /** Makes the job unique (its id): enqueueing it again adds nothing. */
  key?: string;
  concurrencyKeys?: string[];
};

/**
 * Writes a job row in the caller's transaction. The typed `enqueueJob` of lib/jobs/job-types.ts
 * is what the application calls; this untyped form is for the runner's own tests and benches.
 */
export async function insertJob(
  tx: DbOrTx,
  type: string,
  payload: Record<string, unknown>,
  options: Omit<NewJob, "type" | "payload"> = {},
) {
  const job = newJobSQL(type, payload, options);
  await tx.execute(job.sql);
  return job.id;
}

/** insertJob's statement and the job's id, for a statement that writes the work and its job together. */
export function newJobSQL(
  type: string,
  payload: Record<string, unknown>,
  options: Omit<NewJob, "type" | "payload"> = {},
): { id: string; sql: SQL } {
  const row = newJobRow(type, payload, options);
  return { id: row.id, sql: insertJobRows([row]) };
}

/** The INSERT of newJobRow's rows (a statement of their own). */
export const insertJobRows = (rows: object[]) => insertJobsFrom(jobsOfJson(sql`${JSON.stringify(rows)}`));

/** A job as a JSON row of jobsOfJson. */
export function newJobRow(
  type: string,
  payload: Record<string, unknown>,
  options: Omit<NewJob, "type" | "payload"> = {},
) {
  return {
    id: options.key ? keyedJobId(options.key) : createId("job"),
    type,
    payload,
    run_at: (options.runAt ?? clock.now()).toISOString(),
    max_attempts: options.maxAttempts ?? 8,
    priority: options.priority ?? 100,
    concurrency_keys: options.concurrencyKeys ?? [],
  };
}

/** SQL: the jobs of a JSON array of newJobRow's rows (a value or a placeholder), as insertJobsFrom's source. */
export const jobsOfJson = (json: SQL) =>
  sql`select * from jsonb_to_recordset(${json}::jsonb)
    as t(id text, type text, payload jsonb, run_at timestamptz, max_attempts int, priority int, concurrency_keys text[])`;

/**
 * The one "done": the jobs `source` names by (job_id, job_attempts), each only while that claim is
 * still current (a job claimed again after its lease has more attempts, and is the new claim's).
 * Usable as a statement or as the last part of a larger one (a webhook delivery's success).
 */
export function markJobsDoneFrom(source: SQL): SQL {
  return sql`update jobs j set status = 'done', locked_at = null, last_error = null
    from (${source}) as done where j.id = done.job_id and j.attempts = done.job_attempts`;
}

/** One job's claim is finished. */
export async function markJobDone(db: DbOrTx, job: { id: string; attempts: number }) {
  await db.execute(markJobsDoneFrom(sql`select ${job.id}::text as job_id, ${job.attempts}::int as job_attempts`));
}
