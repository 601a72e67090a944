import { randomBytes } from "node:crypto";
import { and, eq, sql } from "drizzle-orm";
import type { DatabaseHandle, Db, DbOrTx } from "../db/client";
import { jobs } from "../db/schema";
import { createId } from "../ids";
import type { z } from "zod";
import { log } from "../log";

export type JobRow = typeof jobs.$inferSelect;

/**
 * A handler that expects another try to succeed (a receiver answered 503, SMTP is down) throws
 * this: retried with the type's backoff like any error, but logged as expected, not as a fault.
 */
export class RetryLater extends Error {
  constructor(message: string) {
    super(message);
    this.name = "RetryLater";
  }
}

/** A handler that knows no further try can succeed throws this: the job fails at once, for good. */
export class PermanentFailure extends Error {
  constructor(message: string) {
    super(message);
    this.name = "PermanentFailure";
  }
}

/** How the runner runs one type of job: its payload's schema, its handler and its retry policy. */
export type JobDefinition<P = any> = {
  payload: z.ZodType<P>;
  handler: (db: Db, payload: P, job: JobRow) => Promise<void>;
  /** Delay before try number `attempt + 1`, after `attempt` failed tries. */
  backoffMs: (attempt: number) => number;
  maxAttempts: number;
  /** In the transaction that marks the job failed for good: leave the work's own records honest. */
  onGiveUp?: (tx: DbOrTx, payload: P, error: unknown) => Promise<void>;
};

/**
 * Writes a job row in the caller's transaction. The typed `enqueueJob` of lib/jobs/job-types.ts
 * is what the application calls; this untyped form is for the runner's own tests and benches.
 */
export async function insertJob(
  tx: DbOrTx,
  type: string,
  payload: Record<string, unknown>,
  options: { runAt?: Date; maxAttempts?: number; priority?: number; key?: string } = {},
) {
  // A key makes the job unique (its id): enqueueing it again, from any instance, adds nothing.
  const id = options.key ? `job_${options.key}` : createId("job");
  const insert = tx
    .insert(jobs)
    .values({ id, type, payload, runAt: options.runAt ?? new Date(), maxAttempts: options.maxAttempts ?? 8, priority: options.priority ?? 100 });
  await (options.key ? insert.onConflictDoNothing() : insert);
  return id;
}

/** Jobs marked running by a process that no longer exists (only safe when no other worker can run). */
export async function requeueOrphanedJobs(db: Db) {
  await db.update(jobs).set({ status: "queued", lockedAt: null }).where(eq(jobs.status, "running"));
}

// Other workers in this process poll sooner after a job is written here.
const wakers = new Set<() => void>();
export function wakeWorkers() {
  for (const wake of wakers) wake();
}

export type WorkerOptions = {
  types: Record<string, JobDefinition>;
  concurrency?: number;
  pollMs?: number;
  /** A job running longer than this (its worker died) is claimed again. */
  leaseMs?: number;
};

/**
 * The durable job runner: jobs are claimed with FOR UPDATE SKIP LOCKED, so any number of workers
 * (in this process or others, on one PostgreSQL) never run one job twice at once; a job whose
 * worker died is claimed again after its lease; failures are retried with the type's backoff.
 * At-least-once: handlers must be idempotent.
 */
export function startWorker(handle: DatabaseHandle, options: WorkerOptions) {
  const { types, concurrency = 8, pollMs = 100, leaseMs = 120_000 } = options;
  const typeNames = Object.keys(types);
  const workerId = randomBytes(4).toString("hex");
  const active = new Set<Promise<void>>();
  let running = true;
  let wake: (() => void) | undefined;
  const waker = () => wake?.();
  wakers.add(waker);

  async function claim(limit: number): Promise<JobRow[]> {
    const result = await handle.db.execute(sql`
      update jobs set status = 'running', locked_at = now(), attempts = attempts + 1
      where id in (
        select id from jobs
        where type in (${sql.join(
          typeNames.map((t) => sql`${t}`),
          sql`, `,
        )})
          and ((status = 'queued' and run_at <= now())
            or (status = 'running' and locked_at < now() - (${leaseMs}::int * interval '1 millisecond')))
        order by priority, run_at
        limit ${limit}
        for update skip locked
      )
      returning id, type, payload, status, attempts, max_attempts, priority, run_at, locked_at, last_error, created_at`);
    const rows = ((result as { rows?: unknown[] }).rows ?? (result as unknown as unknown[])) as Record<string, unknown>[];
    return rows.map((r) => ({
      id: r.id as string,
      type: r.type as string,
      payload: r.payload as Record<string, unknown>,
      status: r.status as JobRow["status"],
      attempts: Number(r.attempts),
      maxAttempts: Number(r.max_attempts),
      priority: Number(r.priority),
      runAt: new Date(r.run_at as string),
      lockedAt: new Date(r.locked_at as string),
      lastError: (r.last_error as string | null) ?? null,
      createdAt: new Date(r.created_at as string),
    }));
  }

  /**
   * One try. Success: done. A PermanentFailure (or a payload its schema refuses): failed at once.
   * Any other error, expected or not (a database blip, a bug that a deploy fixes): tried again with
   * the type's backoff until its attempts are spent, then failed, and the type's `onGiveUp` runs.
   */
  async function run(job: JobRow) {
    const type = types[job.type]!;
    // Only the claim that is still current may finish the job (a reclaimed job has more attempts).
    const mine = and(eq(jobs.id, job.id), eq(jobs.attempts, job.attempts));
    const parsed = type.payload.safeParse(job.payload);
    try {
      if (!parsed.success) throw new PermanentFailure(`payload does not match the ${job.type} schema: ${parsed.error.message}`);
      await type.handler(handle.db, parsed.data, job);
      await handle.db.update(jobs).set({ status: "done", lockedAt: null, lastError: null }).where(mine);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      const final = error instanceof PermanentFailure || job.attempts >= job.maxAttempts;
      const details = { job_id: job.id, type: job.type, attempt: job.attempts, final, worker: workerId };
      if (error instanceof RetryLater) log.info({ ...details, reason: message }, "job will be retried");
      else log.error({ ...details, err: error }, "job failed");
      try {
        await handle.db.transaction(async (tx) => {
          const [updated] = await tx
            .update(jobs)
            .set(
              final
                ? { status: "failed", lockedAt: null, lastError: message }
                : { status: "queued", lockedAt: null, lastError: message, runAt: new Date(Date.now() + type.backoffMs(job.attempts)) },
            )
            .where(mine)
            .returning({ id: jobs.id });
          if (updated && final && parsed.success && type.onGiveUp) await type.onGiveUp(tx, parsed.data, error);
        });
      } catch (recordError) {
        // The job stays running; its lease runs out and it is claimed (and counted) again.
        log.error({ ...details, err: recordError }, "job failure could not be recorded");
      }
    }
  }

  const loop = (async () => {
    while (running) {
      let claimed: JobRow[] = [];
      const free = concurrency - active.size;
      if (free > 0) {
        try {
          claimed = await claim(free);
        } catch (error) {
          if (running) log.error({ err: error, worker: workerId }, "job claim failed");
        }
      }
      for (const job of claimed) {
        const p: Promise<void> = run(job).finally(() => {
          active.delete(p);
          wake?.();
        });
        active.add(p);
      }
      if (claimed.length === 0 || active.size >= concurrency) {
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, pollMs);
          wake = () => {
            clearTimeout(timer);
            resolve();
          };
        });
        wake = undefined;
      }
    }
  })();

  return {
    id: workerId,
    /** Stops claiming and waits for the jobs in hand to finish. */
    async stop() {
      running = false;
      wakers.delete(waker);
      wake?.();
      await loop;
      await Promise.allSettled([...active]);
    },
  };
}
