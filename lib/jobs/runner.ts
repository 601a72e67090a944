import { randomBytes } from "node:crypto";
import { and, eq, sql } from "drizzle-orm";
import { rowsOf } from "../db/client";
import { jobs, type JobRow } from "../db/schema";
import { createId } from "../ids";
import type { z } from "zod";
import { log } from "../log";
import { type DatabaseHandle, type Db, type DbOrTx } from "../db/types";

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
  /**
   * Resolves "recorded" when it has marked the job done itself, in the statement that recorded its
   * work (webhook deliveries: recordSuccesses), which saves the runner's own round trip.
   */
  handler: (db: Db, payload: P, job: JobRow, preloaded?: unknown) => Promise<void | "recorded">;
  /**
   * Reads what a batch of claimed jobs of this type need in one query (job id → what its handler
   * receives as `preloaded`), instead of one query per job. A job it gives nothing for reads alone.
   */
  preload?: (db: Db, batch: { job: JobRow; payload: P }[]) => Promise<Map<string, unknown>>;
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
  options: { runAt?: Date; maxAttempts?: number; priority?: number; key?: string; concurrencyKeys?: string[] } = {},
) {
  // A key makes the job unique (its id): enqueueing it again, from any instance, adds nothing.
  const id = options.key ? `job_${options.key}` : createId("job");
  const insert = tx.insert(jobs).values({
    id,
    type,
    payload,
    runAt: options.runAt ?? new Date(),
    maxAttempts: options.maxAttempts ?? 8,
    priority: options.priority ?? 100,
    concurrencyKeys: options.concurrencyKeys ?? [],
  });
  await (options.key ? insert.onConflictDoNothing() : insert);
  return id;
}

/** Jobs marked running by a process that no longer exists (only safe when no other worker can run). */
export async function requeueOrphanedJobs(db: Db) {
  await db.update(jobs).set({ status: "queued", lockedAt: null }).where(eq(jobs.status, "running"));
}

// Other workers in this process look at once after a job is written here (besides NOTIFY jobs_ready).
const wakers = new Set<() => void>();
export function wakeWorkers() {
  for (const wake of wakers) wake();
}

/** Calls `fn` once, `ms` after the first of any number of calls in between. */
function coalesced(fn: () => void, ms: number) {
  let timer: ReturnType<typeof setTimeout> | undefined;
  return {
    call: () => {
      timer ??= setTimeout(() => {
        timer = undefined;
        fn();
      }, ms);
    },
    cancel: () => clearTimeout(timer),
  };
}

export type WorkerOptions = {
  types: Record<string, JobDefinition>;
  concurrency?: number;
  /** How often to look without being woken (jobs due later, leases run out); NOTIFY wakes it at once. */
  pollMs?: number;
  /** A job running longer than this (its worker died) is claimed again. */
  leaseMs?: number;
  /**
   * Caps per concurrency key, by the key's prefix ({ "host:": 16 }): this worker never runs more
   * than the cap of jobs holding one key, and does not claim them while the key is full, so one
   * slow destination or one busy account cannot take every slot.
   */
  keyLimits?: Record<string, number>;
};

const JOB_COLUMNS = sql.raw("id, type, payload, status, attempts, max_attempts, priority, run_at, locked_at, last_error, concurrency_keys, created_at");

function toJobRow(r: Record<string, unknown>): JobRow {
  return {
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
    concurrencyKeys: (r.concurrency_keys as string[] | null) ?? [],
    createdAt: new Date(r.created_at as string),
  };
}

/**
 * The durable job runner: jobs are claimed with FOR UPDATE SKIP LOCKED, so any number of workers
 * (in this process or others, on one PostgreSQL) never run one job twice at once; a job whose
 * worker died is claimed again after its lease; failures are retried with the type's backoff.
 * At-least-once: handlers must be idempotent.
 */
export function startWorker(handle: DatabaseHandle, options: WorkerOptions) {
  const { types, concurrency = 8, pollMs = 250, leaseMs = 120_000, keyLimits } = options;
  const typeNames = Object.keys(types);
  const workerId = randomBytes(4).toString("hex");
  const active = new Set<Promise<void>>();
  let running = true;
  let wake: (() => void) | undefined;
  // A wake that comes while the loop is claiming is kept, so the loop looks again instead of sleeping.
  let signalled = false;
  const waker = () => {
    if (wake) wake();
    else signalled = true;
  };
  wakers.add(waker);
  // Woken at the commit of any transaction that wrote jobs (every process on PostgreSQL).
  // A burst of commits (each notifies) wakes the loop once: one claim for the jobs they wrote.
  const onNotify = coalesced(waker, 5);
  // Jobs that finish within 2 ms of each other free their slots for one claim, not one each.
  const wakeSoon = coalesced(waker, 2);
  const unlisten = handle.listen("jobs_ready", onNotify.call).catch((error: unknown) => {
    log.warn({ err: error, worker: workerId }, "could not listen for jobs_ready; polling only");
    return undefined;
  });

  const typeList = sql.join(
    typeNames.map((t) => sql`${t}`),
    sql`, `,
  );
  const ready = sql`type in (${typeList})
          and ((status = 'queued' and run_at <= now())
            or (status = 'running' and locked_at < now() - (${leaseMs}::int * interval '1 millisecond')))`;
  // Jobs in hand per concurrency key, and the cap of a key (by its prefix; none: unlimited).
  const holding = new Map<string, number>();
  const capOf = (key: string) => {
    for (const [prefix, cap] of Object.entries(keyLimits ?? {})) if (key.startsWith(prefix)) return cap;
    return Infinity;
  };
  const hold = (job: JobRow, delta: number) => {
    for (const key of job.concurrencyKeys) {
      const n = (holding.get(key) ?? 0) + delta;
      if (n > 0) holding.set(key, n);
      else holding.delete(key);
    }
  };

  async function lockAndTake(which: ReturnType<typeof sql>, limit: number): Promise<JobRow[]> {
    const result = await handle.db.execute(sql`
      update jobs set status = 'running', locked_at = now(), attempts = attempts + 1
      where id in (select id from jobs where ${which} order by priority, run_at limit ${limit} for update skip locked)
      returning ${JOB_COLUMNS}`);
    return rowsOf<Record<string, unknown>>(result).map(toJobRow);
  }

  async function claim(limit: number): Promise<JobRow[]> {
    if (!keyLimits) return lockAndTake(ready, limit);
    // With caps: look first (no locks), choose what fits the keys' room, then lock those that are
    // still free. Full keys are left out of the look, so a backlog behind one does not hide others.
    const full = [...holding].filter(([key, n]) => n >= capOf(key)).map(([key]) => key);
    const candidates = rowsOf<{ id: string; concurrency_keys: string[] | null }>(
      await handle.db.execute(sql`
        select id, concurrency_keys from jobs
        where ${ready} ${full.length ? sql`and not (concurrency_keys && ${`{${full.map((k) => JSON.stringify(k)).join(",")}}`}::text[])` : sql``}
        order by priority, run_at limit ${limit * 4}`),
    );
    const room = new Map<string, number>();
    const chosen: string[] = [];
    for (const c of candidates) {
      if (chosen.length >= limit) break;
      const keys = c.concurrency_keys ?? [];
      if (keys.some((k) => (room.get(k) ?? capOf(k) - (holding.get(k) ?? 0)) <= 0)) continue;
      for (const k of keys) room.set(k, (room.get(k) ?? capOf(k) - (holding.get(k) ?? 0)) - 1);
      chosen.push(c.id);
    }
    if (chosen.length === 0) return [];
    return lockAndTake(
      sql`id in (${sql.join(
        chosen.map((id) => sql`${id}`),
        sql`, `,
      )}) and ${ready}`,
      chosen.length,
    );
  }

  /**
   * One try. Success: done. A PermanentFailure (or a payload its schema refuses): failed at once.
   * Any other error, expected or not (a database blip, a bug that a deploy fixes): tried again with
   * the type's backoff until its attempts are spent, then failed, and the type's `onGiveUp` runs.
   */
  async function run(job: JobRow, preloaded?: unknown) {
    const type = types[job.type]!;
    // Only the claim that is still current may finish the job (a reclaimed job has more attempts).
    const mine = and(eq(jobs.id, job.id), eq(jobs.attempts, job.attempts));
    const parsed = type.payload.safeParse(job.payload);
    try {
      if (!parsed.success) throw new PermanentFailure(`payload does not match the ${job.type} schema: ${parsed.error.message}`);
      const outcome = await type.handler(handle.db, parsed.data, job, preloaded);
      if (outcome !== "recorded") await handle.db.update(jobs).set({ status: "done", lockedAt: null, lastError: null }).where(mine);
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

  /** One query per type for the claimed jobs that have a `preload` (a failure: each reads alone). */
  async function preloadBatch(claimed: JobRow[]): Promise<Map<string, unknown>> {
    const out = new Map<string, unknown>();
    const byType = new Map<string, { job: JobRow; payload: unknown }[]>();
    for (const job of claimed) {
      const type = types[job.type]!;
      if (!type.preload) continue;
      const parsed = type.payload.safeParse(job.payload);
      if (!parsed.success) continue;
      const list = byType.get(job.type) ?? [];
      list.push({ job, payload: parsed.data });
      byType.set(job.type, list);
    }
    for (const [typeName, batch] of byType) {
      try {
        for (const [id, value] of await types[typeName]!.preload!(handle.db, batch)) out.set(id, value);
      } catch (error) {
        log.warn({ err: error, type: typeName, worker: workerId }, "batch preload failed; each job reads alone");
      }
    }
    return out;
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
      const preloaded = await preloadBatch(claimed);
      for (const job of claimed) {
        hold(job, 1);
        const p: Promise<void> = run(job, preloaded.get(job.id)).finally(() => {
          hold(job, -1);
          active.delete(p);
          wakeSoon.call();
        });
        active.add(p);
      }
      if (claimed.length === 0 || active.size >= concurrency) {
        if (signalled) {
          signalled = false;
          continue;
        }
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
      await (
        await unlisten
      )?.();
      onNotify.cancel();
      waker();
      await loop;
      await Promise.allSettled([...active]);
      wakeSoon.cancel();
    },
  };
}
