import { and, eq } from "drizzle-orm";

import { clock } from "../clock";
import { type JobRow, jobs } from "../db/schema";
import type { DatabaseHandle } from "../db/types";
import { log } from "../log";
import { must } from "../must";
import { type JobDefinition, PermanentFailure, RetryLater } from "./definition";
import { markJobDone } from "./queue";

type Types = Record<string, JobDefinition>;

/**
 * One try. Success: done. A PermanentFailure (or a payload its schema refuses): failed at once.
 * Any other error, expected or not (a database blip, a bug that a deploy fixes): tried again with
 * the type's backoff until its attempts are spent, then failed, and the type's `onGiveUp` runs.
 */
export async function runJob(handle: DatabaseHandle, types: Types, job: JobRow, preloaded: unknown, workerId: string) {
  // The runner claims only the types it was given (lib/jobs/claim.ts).
  const type = must(types[job.type], `the job type ${job.type}`);
  // Only the claim that is still current may finish the job (a reclaimed job has more attempts).
  const mine = and(eq(jobs.id, job.id), eq(jobs.attempts, job.attempts));
  const parsed = type.payload.safeParse(job.payload);
  try {
    if (!parsed.success)
      throw new PermanentFailure(`payload does not match the ${job.type} schema: ${parsed.error.message}`);
    const outcome = await type.handler(handle.db, parsed.data, job, preloaded);
    if (outcome !== "recorded") await markJobDone(handle.db, job);
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
              : {
                  status: "queued",
                  lockedAt: null,
                  lastError: message,
                  runAt: new Date(clock.ms() + type.backoffMs(job.attempts)),
                },
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
export async function preloadBatch(
  handle: DatabaseHandle,
  types: Types,
  claimed: JobRow[],
  workerId: string,
): Promise<Map<string, unknown>> {
  const out = new Map<string, unknown>();
  const byType = new Map<string, { job: JobRow; payload: unknown }[]>();
  for (const job of claimed) {
    const type = types[job.type];
    if (!type?.preload) continue;
    const parsed = type.payload.safeParse(job.payload);
    if (!parsed.success) continue;
    const list = byType.get(job.type) ?? [];
    list.push({ job, payload: parsed.data });
    byType.set(job.type, list);
  }
  for (const [typeName, batch] of byType) {
    try {
      const preload = types[typeName]?.preload;
      if (!preload) continue;
      for (const [id, value] of await preload(handle.db, batch)) out.set(id, value);
    } catch (error) {
      log.warn({ err: error, type: typeName, worker: workerId }, "batch preload failed; each job reads alone");
    }
  }
  return out;
}
