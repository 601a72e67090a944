import type { z } from "zod";

import type { JobRow } from "../db/schema";
import type { Db, DbOrTx } from "../db/types";

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

/**
 * How the runner runs one type of job: its payload's schema, its handler and its retry policy.
 * `L` is what the type's `preload` reads for a batch and hands each job's handler.
 */
// The defaults let one registry hold types of different payloads (lib/jobs/job-types.ts): the runner
// parses each payload with its type's own schema before that type's handler sees it (run-job.ts).
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see above
export type JobDefinition<P = any, L = any> = {
  payload: z.ZodType<P>;
  /**
   * Resolves "recorded" when it has marked the job done itself, in the statement that recorded its
   * work (webhook deliveries: markJobsDoneFrom in their success statement), which saves the
   * runner's own round trip.
   */
  handler: (db: Db, payload: P, job: JobRow, preloaded?: L) => Promise<void | "recorded">;
  /**
   * Reads what a batch of claimed jobs of this type need in one query (job id → what its handler
   * receives as `preloaded`), instead of one query per job. A job it gives nothing for reads alone.
   */
  preload?: (db: Db, batch: { job: JobRow; payload: P }[]) => Promise<Map<string, L>>;
  /** Delay before try number `attempt + 1`, after `attempt` failed tries. */
  backoffMs: (attempt: number) => number;
  maxAttempts: number;
  /** In the transaction that marks the job failed for good: leave the work's own records honest. */
  onGiveUp?: (tx: DbOrTx, payload: P, error: unknown) => Promise<void>;
};
