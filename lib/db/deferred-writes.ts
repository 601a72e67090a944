// What a transaction writes at its end, in one statement with its events, instead of one statement
// each (lib/domain/events/record-event.ts, transactionWithEvents): its events, the jobs it enqueued
// (lib/jobs/job-types.ts) and the messages it queued (lib/notifications/send-email.ts). Each row is
// JSON as that statement reads it. Nothing in the transaction may read a deferred row back.

export type DeferredWrites = {
  events: object[];
  /** Rows of `jobs` (lib/jobs/queue.ts newJobRow). */
  jobs: object[];
  /** Rows of `outbox` (lib/notifications/send-email.ts). */
  mail: object[];
};

const open = new WeakMap<object, DeferredWrites>();

/** The transaction's writes held for its end, if it defers them. */
export const deferredWritesOf = (tx: object): DeferredWrites | undefined => open.get(tx);

/**
 * Runs `work` with the transaction's writes held, then `flush`es them (not when `work` throws: the
 * transaction rolls back). Nested: the outer one flushes.
 */
export async function withDeferredWrites<T>(
  tx: object,
  work: () => Promise<T>,
  flush: (writes: DeferredWrites) => Promise<void>,
): Promise<T> {
  if (open.has(tx)) return work();
  const writes: DeferredWrites = { events: [], jobs: [], mail: [] };
  open.set(tx, writes);
  let result: T;
  try {
    result = await work();
  } finally {
    open.delete(tx);
  }
  await flush(writes);
  return result;
}
