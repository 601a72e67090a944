import { and, eq, sql } from "drizzle-orm";

import { clock } from "../../clock";
import { compiledStatement, compiledWrite } from "../../db/prepared";
import { type ProcessorCallRow, processorCalls } from "../../db/schema";
import { type DbOrTx } from "../../db/types";
import { createId } from "../../ids";
import { jobRowOf } from "../../jobs/job-types";
import { insertJobsFrom, jobsOfJson } from "../../jobs/queue";
import { log } from "../../log";
import { processorTimeoutMs } from "../../processors";
import type { processorCallKinds } from "../../schemas/payment-values";

// Every call to a processor that moves money follows one pattern (docs/reference.md section 10,
// "Calls to the processor"):
//   1. the intent: a `processor_calls` row written and committed (with the recovery job) before the call;
//   2. the call, outside any transaction, with the row's id as the processor's idempotency key and a
//      deadline (PROCESSOR_TIMEOUT_MS);
//   3. the outcome, recorded in the transaction that records what the call did, which first claims
//      the row (`started` → `recorded`): the request and the recovery job never record one call twice.
// A call whose answer never came (a timeout, an error, a crash before the record) stays `started`;
// the job `processor_call_recover` asks the processor by the key and records it then.

/** How long after a call the recovery job looks at it: well past the call's deadline and the request's claim. */
export const RECOVER_AFTER_MS = 60_000;

export type CallOutcome = { approved: true; reference: string } | { approved: false; reason: string };

/**
 * Step 1: the call about to be made, and the job that settles it if nobody records it, in one
 * statement (atomic without a transaction of its own; in the caller's when it passes one).
 */
export async function startCall(
  tx: DbOrTx,
  input: {
    kind: (typeof processorCallKinds)[number];
    processor: string;
    amount: number;
    isvAccountId: string;
    merchantId: string;
    subjectId: string;
  },
  now = clock.now(),
): Promise<ProcessorCallRow> {
  const values = { id: createId("pcl"), ...input, status: "started" as const, createdAt: now, updatedAt: now };
  // The row as the insert makes it (the other columns' defaults).
  const call: ProcessorCallRow = { ...values, outcome: null, attempts: 0, voidedAt: null };
  const recover = jobRowOf(
    "processor_call_recover",
    { call_id: call.id },
    { runAt: new Date(now.getTime() + RECOVER_AFTER_MS), key: `processor_call_recover_${call.id}` },
  );
  await startStatement(tx, {
    id: values.id,
    isv: values.isvAccountId,
    merchant: values.merchantId,
    kind: values.kind,
    processor: values.processor,
    amount: values.amount,
    subject: values.subjectId,
    at: now.toISOString(),
    job: JSON.stringify([recover]),
  });
  return call;
}

/** startCall's statement (the call and its recovery job), built once: every payment makes one. */
const startStatement = compiledStatement(
  "processor_call_start",
  () => sql`with call as (
      insert into processor_calls (id, isv_account_id, merchant_id, kind, processor, amount, subject_id, status, created_at, updated_at)
      values (${sql.placeholder("id")}, ${sql.placeholder("isv")}, ${sql.placeholder("merchant")}, ${sql.placeholder("kind")},
        ${sql.placeholder("processor")}, ${sql.placeholder("amount")}::int, ${sql.placeholder("subject")}, 'started',
        ${sql.placeholder("at")}::timestamptz, ${sql.placeholder("at")}::timestamptz)
    ) ${insertJobsFrom(jobsOfJson(sql`${sql.placeholder("job")}`))}`,
);

/** The call's answer, or `unknown` when the processor failed or did not answer in time (the job will ask). */
export type CallAnswer<T> = { known: true; answer: T } | { known: false; error: string };

/**
 * Step 2: the call, outside any transaction, under the call's id as idempotency key, given up after
 * PROCESSOR_TIMEOUT_MS. Writes nothing: the request's path stays one intent and one record (the
 * recovery job counts its own asks on the row, `attempts`).
 */
export async function makeCall<T>(
  call: ProcessorCallRow,
  send: (idempotencyKey: string) => Promise<T>,
  timeoutMs = processorTimeoutMs(),
): Promise<CallAnswer<T>> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
  });
  let result: CallAnswer<T>;
  try {
    result = { known: true, answer: await Promise.race([send(call.id), deadline]) };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    log.warn({ processor_call_id: call.id, kind: call.kind, err: message }, "processor call without an answer");
    result = { known: false, error: message };
  } finally {
    clearTimeout(timer);
  }
  return result;
}

/**
 * Step 3's first statement, in the recording transaction: the call moves from `started` to `status`
 * with its outcome and stays locked until the record commits. Null: someone recorded it first (the
 * request or the job), and this caller must record nothing.
 */
export async function claimCall(
  tx: DbOrTx,
  id: string,
  status: "recorded" | "cancelled",
  outcome: CallOutcome | null,
): Promise<ProcessorCallRow | null> {
  const [claimed] = await claimStatement(tx, { status, outcome, updatedAt: clock.now() }, { id });
  return claimed ?? null;
}

/** claimCall's update, built once (every payment's outcome runs it). */
const claimStatement = compiledWrite("processor_call_claim", (db, set) =>
  db
    .update(processorCalls)
    .set(set)
    .where(and(eq(processorCalls.id, sql.placeholder("id")), eq(processorCalls.status, "started")))
    .returning(),
);
