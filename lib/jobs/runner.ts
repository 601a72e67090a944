import { randomBytes } from "node:crypto";

import { eq } from "drizzle-orm";

import { type JobRow, jobs } from "../db/schema";
import { type DatabaseHandle, type Db } from "../db/types";
import { log } from "../log";
import { jobClaimer } from "./claim";
import type { JobDefinition } from "./definition";
import { preloadBatch, runJob } from "./run-job";

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

/**
 * The durable job runner: a loop that claims what it has room for (lib/jobs/claim.ts: any number
 * of workers, in this process or others on one PostgreSQL, never run one job twice at once; a job
 * whose worker died is claimed again after its lease), preloads each batch and runs each job
 * (lib/jobs/run-job.ts: failures retried with the type's backoff). At-least-once: handlers must be
 * idempotent. Woken by NOTIFY jobs_ready at the commit of any transaction that wrote jobs.
 */
export function startWorker(handle: DatabaseHandle, options: WorkerOptions) {
  const { types, concurrency = 8, pollMs = 250, leaseMs = 120_000, keyLimits } = options;
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

  const claimer = jobClaimer(handle, { typeNames: Object.keys(types), leaseMs, keyLimits });

  const loop = (async () => {
    while (running) {
      let claimed: JobRow[] = [];
      const free = concurrency - active.size;
      if (free > 0) {
        try {
          claimed = await claimer.claim(free);
        } catch (error) {
          if (running) log.error({ err: error, worker: workerId }, "job claim failed");
        }
      }
      const preloaded = await preloadBatch(handle, types, claimed, workerId);
      for (const job of claimed) {
        claimer.hold(job, 1);
        const p: Promise<void> = runJob(handle, types, job, preloaded.get(job.id), workerId).finally(() => {
          claimer.hold(job, -1);
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
