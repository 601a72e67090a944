import { type SQL, sql } from "drizzle-orm";
import { z } from "zod";

import { deferredWritesOf } from "../db/deferred-writes";
import { type DbOrTx } from "../db/types";
import { env } from "../env";
import { checkSubjects, checkTypes } from "../schemas/verification";
import { insertJobRows, insertJobsFrom, keyedJobIdSQL, newJobRow } from "./queue";

// Every type of background job: its name, the schema of its payload and its retry policy. The
// handlers live beside their domain (lib/workers/registry.ts puts them together); this file holds
// only what enqueueing needs, so that any domain module can enqueue without importing handlers.

const webhookSchedule = env.WEBHOOK_RETRY_SCHEDULE_MS.split(",").map(Number);

export const jobTypes = {
  /** One delivery of one event to one webhook (docs/reference.md section 9): 8 tries over about a day. */
  webhook_delivery: {
    payload: z.object({ delivery_id: z.string() }),
    maxAttempts: webhookSchedule.length + 1,
    backoffMs: (attempt: number) => webhookSchedule[Math.min(attempt - 1, webhookSchedule.length - 1)] ?? 0,
    priority: 100,
  },
  /** The automatic decision on one submission; ahead of deliveries (the sandbox decides within seconds). */
  underwriting: {
    payload: z.object({ merchant_id: z.string() }),
    maxAttempts: 8,
    backoffMs: (attempt: number) => 1000 * 2 ** attempt,
    priority: 10,
  },
  /** One verification check of one merchant (docs/reference.md section 14), for one version of the check. */
  verification_check: {
    payload: z.object({
      merchant_id: z.string(),
      type: z.enum(checkTypes),
      subject: z.enum(checkSubjects),
      version: z.number().int().min(1),
    }),
    maxAttempts: 6,
    backoffMs: (attempt: number) => 2000 * 2 ** (attempt - 1),
    priority: 10,
  },
  /** Expires an unpaid payment request at its `expires_at` (docs/reference.md section 10). */
  payment_request_expiry: {
    payload: z.object({ payment_request_id: z.string() }),
    maxAttempts: 10,
    backoffMs: (attempt: number) => Math.min(1000 * 2 ** attempt, 600_000),
    priority: 20,
  },
  /** The daily settlement of every merchant (00:00 UTC), one job per day whatever the number of instances. */
  settlement_run: {
    payload: z.object({ cutoff: z.string() }),
    maxAttempts: 10,
    backoffMs: (attempt: number) => Math.min(30_000 * 2 ** (attempt - 1), 1_800_000),
    priority: 50,
  },
  /** Asks the ACH processor which debits of a settlement the customers' banks returned (docs/reference.md section 13). */
  ach_returns: {
    payload: z.object({ settlement_id: z.string() }),
    maxAttempts: 10,
    backoffMs: (attempt: number) => Math.min(30_000 * 2 ** (attempt - 1), 3_600_000),
    priority: 40,
  },
  /** Asks the ACH processor which returns of a settlement the banks reversed. */
  ach_return_reversals: {
    payload: z.object({ settlement_id: z.string() }),
    maxAttempts: 10,
    backoffMs: (attempt: number) => Math.min(30_000 * 2 ** (attempt - 1), 3_600_000),
    priority: 40,
  },
  /** Makes a report's CSV from the ledger (docs/reference.md section 18). */
  report_run: {
    payload: z.object({ report_id: z.string() }),
    maxAttempts: 5,
    backoffMs: (attempt: number) => Math.min(10_000 * 2 ** (attempt - 1), 600_000),
    priority: 60,
  },
  /** The daily check of the ledger's invariants (01:00 UTC), one job per day. */
  ledger_check: {
    payload: z.object({ at: z.string() }),
    maxAttempts: 5,
    backoffMs: (attempt: number) => Math.min(60_000 * 2 ** (attempt - 1), 3_600_000),
    priority: 90,
  },
  /** The nightly purge of what is past its retention (03:00 UTC), one job per day. */
  retention_purge: {
    payload: z.object({ at: z.string() }),
    maxAttempts: 5,
    backoffMs: (attempt: number) => Math.min(60_000 * 2 ** (attempt - 1), 3_600_000),
    priority: 90,
  },
  /** The daily risk job (docs/reference.md section 20) after the day's settlement, one per day. */
  risk_run: {
    payload: z.object({ day: z.string() }),
    maxAttempts: 5,
    backoffMs: (attempt: number) => Math.min(60_000 * 2 ** (attempt - 1), 3_600_000),
    priority: 70,
  },
  /** The month-end bills (fees posted to the ledger) of a finished period, one job per period. */
  month_end_billing: {
    payload: z.object({ period: z.string().regex(/^\d{4}-\d{2}$/) }),
    maxAttempts: 10,
    backoffMs: (attempt: number) => Math.min(60_000 * 2 ** (attempt - 1), 3_600_000),
    priority: 60,
  },
  /** The monthly statements of a finished period, one job per period whatever the number of instances. */
  statement_run: {
    payload: z.object({ period: z.string().regex(/^\d{4}-\d{2}$/) }),
    maxAttempts: 10,
    backoffMs: (attempt: number) => Math.min(60_000 * 2 ** (attempt - 1), 3_600_000),
    priority: 60,
  },
  /** The verification of an ISV's own bank account (docs/reference.md section 19), the one given at `given_at`. */
  account_bank_check: {
    payload: z.object({ account_id: z.string(), given_at: z.string() }),
    maxAttempts: 10,
    backoffMs: (attempt: number) => Math.min(30_000 * 2 ** (attempt - 1), 3_600_000),
    priority: 40,
  },
  /** A changed ISV bank account's hold is over: its waiting residuals are paid. */
  account_residuals_pay: {
    payload: z.object({ account_id: z.string() }),
    maxAttempts: 10,
    backoffMs: (attempt: number) => Math.min(30_000 * 2 ** (attempt - 1), 3_600_000),
    priority: 40,
  },
  /** An older release's name of `payout_advance` for the ISV's own payouts (its queued jobs still run). */
  account_payout_advance: {
    payload: z.object({ payout_id: z.string(), step: z.enum(["send", "settle"]) }),
    maxAttempts: 10,
    backoffMs: (attempt: number) => Math.min(30_000 * 2 ** (attempt - 1), 3_600_000),
    priority: 40,
  },
  /** The residuals of a finished month (docs/reference.md section 19), one job per period. */
  residual_run: {
    payload: z.object({ period: z.string().regex(/^\d{4}-\d{2}$/) }),
    maxAttempts: 10,
    backoffMs: (attempt: number) => Math.min(60_000 * 2 ** (attempt - 1), 3_600_000),
    priority: 60,
  },
  /** The next step of one payout (docs/reference.md section 16): send it, or record the bank's answer. */
  payout_advance: {
    payload: z.object({ payout_id: z.string(), step: z.enum(["send", "settle"]) }),
    maxAttempts: 10,
    backoffMs: (attempt: number) => Math.min(30_000 * 2 ** (attempt - 1), 3_600_000),
    priority: 40,
  },
  /** Looks again at a merchant's held payouts (a new bank account's cooling-off ended). */
  /**
   * Settles a call to the processor left started (docs/reference.md section 10, "Calls to the
   * processor"): enqueued with the call, due a minute later, and nothing to do when it was recorded.
   */
  processor_call_recover: {
    payload: z.object({ call_id: z.string() }),
    maxAttempts: 20,
    backoffMs: (attempt: number) => Math.min(30_000 * 2 ** (attempt - 1), 3_600_000),
    priority: 15,
  },
  payout_reconsider: {
    payload: z.object({ merchant_id: z.string() }),
    maxAttempts: 10,
    backoffMs: (attempt: number) => Math.min(30_000 * 2 ** (attempt - 1), 3_600_000),
    priority: 40,
  },
  /** Asks the card processor which charges of a settlement their customers disputed (docs/reference.md section 16). */
  card_disputes: {
    payload: z.object({ settlement_id: z.string() }),
    maxAttempts: 10,
    backoffMs: (attempt: number) => Math.min(30_000 * 2 ** (attempt - 1), 3_600_000),
    priority: 40,
  },
  /** A dispute's deadline (`evidence_due_by`): still unanswered then, it is lost. */
  dispute_deadline: {
    payload: z.object({ dispute_id: z.string() }),
    maxAttempts: 10,
    backoffMs: (attempt: number) => Math.min(30_000 * 2 ** (attempt - 1), 3_600_000),
    priority: 40,
  },
  /** The card bank's decision on submitted evidence (the sandbox's: within seconds). */
  dispute_decision: {
    payload: z.object({ dispute_id: z.string() }),
    maxAttempts: 10,
    backoffMs: (attempt: number) => Math.min(30_000 * 2 ** (attempt - 1), 3_600_000),
    priority: 40,
  },
  /** One e-mail of the outbox over SMTP. */
  /** A subscription's step that fell due (docs/reference.md section 21): a renewal, a retry, its end. */
  subscription_due: {
    payload: z.object({ subscription_id: z.string() }),
    maxAttempts: 8,
    backoffMs: (attempt: number) => Math.min(30_000 * 2 ** (attempt - 1), 3_600_000),
    priority: 30,
  },
  /** A sandbox test clock moved forward: every step of its subscriptions that fell due, in order. */
  test_clock_advance: {
    payload: z.object({ test_clock_id: z.string() }),
    maxAttempts: 3,
    backoffMs: (attempt: number) => 5_000 * attempt,
    priority: 30,
  },
  email: {
    payload: z.object({ outbox_id: z.string() }),
    maxAttempts: 6,
    backoffMs: (attempt: number) => Math.min(60_000 * 2 ** (attempt - 1), 3_600_000),
    priority: 100,
  },
} as const;

export type JobName = keyof typeof jobTypes;
export type JobPayload<T extends JobName> = z.infer<(typeof jobTypes)[T]["payload"]>;

/**
 * Writes a job in the caller's transaction: it exists exactly when the change that caused it does.
 * Only registered types compile, with their own payload shape.
 */
export async function enqueueJob<T extends JobName>(
  tx: DbOrTx,
  type: T,
  payload: JobPayload<T>,
  options: { runAt?: Date; key?: string; concurrencyKeys?: string[] } = {},
) {
  // A transaction that writes at its end (lib/db/deferred-writes.ts): the job goes in its last statement.
  const later = deferredWritesOf(tx);
  const row = jobRowOf(type, payload, options);
  if (later) later.jobs.push(row);
  else await tx.execute(insertJobRows([row]));
  return row.id;
}

/** A registered job as a row of ./queue.ts jobsOfJson, with its type's payload, attempts and priority. */
export function jobRowOf<T extends JobName>(
  type: T,
  payload: JobPayload<T>,
  options: { runAt?: Date; key?: string; concurrencyKeys?: string[] },
) {
  const def = jobTypes[type];
  return newJobRow(type, def.payload.parse(payload), {
    runAt: options.runAt,
    maxAttempts: def.maxAttempts,
    priority: def.priority,
    key: options.key,
    concurrencyKeys: options.concurrencyKeys,
  });
}

/**
 * SQL that enqueues jobs of one registered type for the rows of `source` (key, payload,
 * concurrency_keys): due now, keyed (the same key is the same job), with the type's attempts and
 * priority. For a statement that writes the work and its jobs together (an event's deliveries).
 */
export function jobsOfTypeFrom<T extends JobName>(type: T, source: SQL): SQL {
  const def = jobTypes[type];
  return insertJobsFrom(
    sql`select ${keyedJobIdSQL(sql`s.key`)} as id, ${type}::text as type, s.payload, now() as run_at, ${def.maxAttempts}::int as max_attempts,
      ${def.priority}::int as priority, s.concurrency_keys from (${source}) as s`,
  );
}
