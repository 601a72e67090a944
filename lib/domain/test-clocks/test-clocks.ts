import { and, asc, eq, isNull, lte } from "drizzle-orm";

import { clock } from "../../clock";
import { atTime } from "../../clock-scope";
import { cursorPage } from "../../db/cursor-page";
import { one } from "../../db/one";
import { customers, subscriptions, testClocks } from "../../db/schema";
import { type Db, type DbOrTx } from "../../db/types";
import { invalid, invalidState } from "../../errors";
import { createId } from "../../ids";
import { enqueueJob, type JobPayload } from "../../jobs/job-types";
import { log } from "../../log";
import type { ListQuery } from "../../schemas/list";
import { deleteCustomer } from "../customers/customers";
import type { Scope } from "../scope";
import { stepSubscription } from "../subscriptions/renew";
import { endSubscription } from "../subscriptions/schedule";
import { findTestClock } from "./find-test-clock";

// Sandbox test clocks (docs/reference.md section 21): the customers made on a clock, and their
// subscriptions, live at its `frozen_time`. Advancing it runs, in order and at the time each fell due,
// every step of its subscriptions up to the new time (renewals, retries and their e-mails), in a job:
// the clock reads `advancing` until it is done, then `ready`.

const HOUR_MS = 60 * 60 * 1000;
const MAX_ADVANCE_MS = 2 * 366 * 24 * HOUR_MS;
/**
 * Subscriptions moved at the same time while a clock advances (each one's steps stay in order): at
 * most this many of the pool's connections (DATABASE_POOL_SIZE, 10 by default) at once. Eight renew
 * about 8 % more a second than four on 2 cores (docs/decisions.md, subscriptions).
 */
const ADVANCE_CONCURRENCY = 8;
/** Steps one subscription may take in one advance (two years of weekly renewals, with retries). */
const MAX_STEPS = 1_000;

/** POST /v1/test_helpers/test_clocks `{ frozen_time, name? }`: from an hour ago to two years ahead. */
export async function createTestClock(db: Db, scope: Scope, input: { frozen_time: number; name?: string }) {
  const now = clock.ms();
  if (input.frozen_time < now - HOUR_MS || input.frozen_time > now + MAX_ADVANCE_MS)
    throw invalid("frozen_time", "frozen_time must be between an hour ago and two years from now");
  return one(
    await db
      .insert(testClocks)
      .values({
        id: createId("clock"),
        isvAccountId: scope.isvAccountId,
        name: input.name ?? null,
        frozenTime: new Date(input.frozen_time),
        status: "ready",
      })
      .returning(),
  );
}

/** GET /v1/test_helpers/test_clocks: newest first. */
export async function listTestClocks(db: DbOrTx, scope: Scope, query: ListQuery) {
  return cursorPage(query, {
    noun: "test clock",
    seq: testClocks.seq,
    filters: [eq(testClocks.isvAccountId, scope.isvAccountId), isNull(testClocks.deletedAt)],
    positionOf: async (cursor) => {
      const [row] = await db
        .select({ seq: testClocks.seq })
        .from(testClocks)
        .where(and(eq(testClocks.isvAccountId, scope.isvAccountId), eq(testClocks.id, cursor)));
      return row?.seq ?? null;
    },
    select: (where, orderBy, limit) => db.select().from(testClocks).where(where).orderBy(orderBy).limit(limit),
  });
}

/**
 * POST /v1/test_helpers/test_clocks/{id}/advance `{ frozen_time }`: later than the clock's time, by
 * at most two years; answers the clock `advancing` (poll it until `ready`). 409 while it advances.
 */
export async function advanceTestClock(db: Db, scope: Scope, id: string, input: { frozen_time: number }) {
  const current = await findTestClock(db, scope, id);
  if (input.frozen_time <= current.frozenTime.getTime())
    throw invalid("frozen_time", "frozen_time must be later than the clock's time: a test clock only moves forward");
  if (input.frozen_time > current.frozenTime.getTime() + MAX_ADVANCE_MS)
    throw invalid("frozen_time", "A test clock moves at most two years at a time");
  return db.transaction(async (tx) => {
    const [moved] = await tx
      .update(testClocks)
      .set({ status: "advancing", advancingTo: new Date(input.frozen_time) })
      .where(and(eq(testClocks.id, current.id), eq(testClocks.status, "ready")))
      .returning();
    if (!moved) throw invalidState(`The test clock ${id} is advancing already: wait until its status is ready`);
    await enqueueJob(
      tx,
      "test_clock_advance",
      { test_clock_id: moved.id },
      { key: `test_clock_${moved.id}_${input.frozen_time}` },
    );
    return moved;
  });
}

/** The job: every due step of the clock's subscriptions up to the target time, then the clock at that time. */
export async function runTestClockAdvance(db: Db, { test_clock_id }: JobPayload<"test_clock_advance">) {
  const [row] = await db.select().from(testClocks).where(eq(testClocks.id, test_clock_id));
  if (!row || row.status !== "advancing" || !row.advancingTo) return;
  const target = row.advancingTo;
  for (;;) {
    const due = await db
      .select({ id: subscriptions.id, nextActionAt: subscriptions.nextActionAt })
      .from(subscriptions)
      .where(and(eq(subscriptions.testClockId, row.id), lte(subscriptions.nextActionAt, target)))
      .orderBy(asc(subscriptions.nextActionAt))
      .limit(1_000);
    if (!due.length) break;
    const queue = [...due];
    const worker = async () => {
      for (let next = queue.shift(); next; next = queue.shift()) await runUntil(db, next, target);
    };
    await Promise.all(Array.from({ length: ADVANCE_CONCURRENCY }, worker));
  }
  await db
    .update(testClocks)
    .set({ frozenTime: target, status: "ready", advancingTo: null })
    .where(and(eq(testClocks.id, row.id), eq(testClocks.status, "advancing")));
}

/**
 * One subscription's steps, each at the time it fell due, until none is due by `target`; its first
 * time as the due list read it, the next ones as its step answered them (a renewal paid: its period's
 * end) or read. A step that finds it moved meanwhile does nothing.
 */
async function runUntil(db: Db, first: { id: string; nextActionAt: Date | null }, target: Date) {
  const id = first.id;
  let next: Date | null | undefined = first.nextActionAt;
  for (let i = 0; i < MAX_STEPS; i++) {
    if (next === undefined) {
      const [sub] = await db
        .select({ nextActionAt: subscriptions.nextActionAt })
        .from(subscriptions)
        .where(eq(subscriptions.id, id));
      next = sub?.nextActionAt;
    }
    if (!next || next > target) return;
    const step = await atTime(next, () => stepSubscription(db, id));
    if (!step) return;
    next = step.next;
  }
  log.warn({ subscription_id: id }, "a subscription took too many steps in one test clock advance");
}

/** The job gave up: the clock says so (its objects keep what was done). */
export async function giveUpTestClock(db: DbOrTx, { test_clock_id }: JobPayload<"test_clock_advance">, error: unknown) {
  log.error({ test_clock_id, err: error }, "test clock advance failed");
  await db
    .update(testClocks)
    .set({ status: "internal_failure", advancingTo: null })
    .where(and(eq(testClocks.id, test_clock_id), eq(testClocks.status, "advancing")));
}

/** DELETE /v1/test_helpers/test_clocks/{id}: its subscriptions canceled, its customers deleted, then the clock. */
export async function deleteTestClock(db: Db, scope: Scope, id: string) {
  const row = await findTestClock(db, scope, id);
  if (row.status === "advancing")
    throw invalidState(`The test clock ${id} is advancing: wait until its status is ready`);
  const live = await db
    .select()
    .from(subscriptions)
    .where(and(eq(subscriptions.testClockId, row.id)));
  for (const sub of live)
    if (sub.status !== "canceled") await db.transaction((tx) => endSubscription(tx, sub, row.frozenTime));
  const onClock = await db
    .select({ id: customers.id })
    .from(customers)
    .where(and(eq(customers.testClockId, row.id), isNull(customers.deletedAt)));
  for (const customer of onClock) await deleteCustomer(db, scope, customer.id);
  await db.update(testClocks).set({ deletedAt: clock.now() }).where(eq(testClocks.id, row.id));
  return { object: "test_helpers.test_clock" as const, id: row.id, deleted: true as const };
}
