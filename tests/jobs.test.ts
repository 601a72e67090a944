import { eq, inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { z } from "zod";

import { openDatabase } from "@/lib/db/client";
import { jobs } from "@/lib/db/schema";
import { type DatabaseHandle } from "@/lib/db/types";
import { env } from "@/lib/env";
import { randomBase62 } from "@/lib/ids";
import { type JobDefinition, PermanentFailure, RetryLater } from "@/lib/jobs/definition";
import { insertJob } from "@/lib/jobs/queue";
import { startWorker } from "@/lib/jobs/runner";

const anyPayload = z.record(z.string(), z.unknown());

let handle: DatabaseHandle;
let second: DatabaseHandle | undefined;
beforeAll(async () => {
  handle = await openDatabase({ databaseUrl: env.DATABASE_URL, dataDir: env.DATA_DIR, poolSize: 5 });
  // On PostgreSQL the second worker has its own pool, like another app instance.
  second = env.DATABASE_URL
    ? await openDatabase({ databaseUrl: env.DATABASE_URL, dataDir: env.DATA_DIR, poolSize: 5, migrate: false })
    : undefined;
});
afterAll(async () => {
  await second?.close();
  await handle.close();
});

const until = async (predicate: () => Promise<boolean> | boolean, timeoutMs = 20_000) => {
  const start = Date.now();
  while (!(await predicate())) {
    if (Date.now() - start > timeoutMs) throw new Error("timed out");
    await new Promise((r) => setTimeout(r, 25));
  }
};

describe("the job runner", () => {
  test("two workers on one database run each of 300 jobs exactly once to completion", async () => {
    const type = `test_once_${randomBase62(6)}`;
    const runs = new Map<string, number>();
    const byWorker = { a: 0, b: 0 };
    const make = (name: "a" | "b"): JobDefinition => ({
      payload: anyPayload,
      maxAttempts: 3,
      backoffMs: () => 10,
      handler: async (_db, _payload, job) => {
        runs.set(job.id, (runs.get(job.id) ?? 0) + 1);
        byWorker[name]++;
        await new Promise((r) => setTimeout(r, Math.random() * 5));
      },
    });
    const ids: string[] = [];
    await handle.db.transaction(async (tx) => {
      for (let i = 0; i < 300; i++) ids.push(await insertJob(tx, type, { i }));
    });
    const a = startWorker(handle, { types: { [type]: make("a") }, concurrency: 4, pollMs: 20 });
    const b = startWorker(second ?? handle, { types: { [type]: make("b") }, concurrency: 4, pollMs: 20 });
    await until(() => runs.size === 300);
    await until(async () => {
      const rows = await handle.db.select().from(jobs).where(inArray(jobs.id, ids));
      return rows.length === 300 && rows.every((j) => j.status === "done");
    });
    await Promise.all([a.stop(), b.stop()]);
    expect([...runs.values()]).toEqual(Array(300).fill(1));
    expect(byWorker.a).toBeGreaterThan(0);
    expect(byWorker.b).toBeGreaterThan(0);
  }, 60_000);

  test("a failing job is retried with backoff, then marked failed after its attempts", async () => {
    const type = `test_retry_${randomBase62(6)}`;
    let calls = 0;
    const id = await insertJob(handle.db, type, {}, { maxAttempts: 3 });
    const w = startWorker(handle, {
      types: {
        [type]: {
          payload: anyPayload,
          maxAttempts: 3,
          backoffMs: () => 30,
          handler: async () => {
            calls++;
            throw new RetryLater("not yet");
          },
        },
      },
      pollMs: 10,
    });
    await until(async () => (await handle.db.select().from(jobs).where(eq(jobs.id, id)))[0]!.status === "failed");
    await w.stop();
    const [row] = await handle.db.select().from(jobs).where(eq(jobs.id, id));
    expect(calls).toBe(3);
    expect(row).toMatchObject({ attempts: 3, lastError: "not yet" });
  });

  test("an unexpected error (not RetryLater) is retried with backoff, and the job then succeeds", async () => {
    const type = `test_blip_${randomBase62(6)}`;
    let calls = 0;
    const id = await insertJob(handle.db, type, { n: 1 }, { maxAttempts: 3 });
    const handler = async () => {
      calls++;
      if (calls === 1) throw new Error("connection terminated unexpectedly");
    };
    const w = startWorker(handle, {
      types: { [type]: { payload: anyPayload, maxAttempts: 3, backoffMs: () => 30, handler } },
      pollMs: 10,
    });
    await until(async () => (await handle.db.select().from(jobs).where(eq(jobs.id, id)))[0]!.status === "done");
    await w.stop();
    expect(calls).toBe(2);
    const [row] = await handle.db.select().from(jobs).where(eq(jobs.id, id));
    expect(row).toMatchObject({ attempts: 2, status: "done", lastError: null });
  });

  test("a PermanentFailure, or a payload its schema refuses, fails at once and runs onGiveUp once in the same transaction", async () => {
    const type = `test_permanent_${randomBase62(6)}`;
    let calls = 0;
    const gaveUp: unknown[] = [];
    const definition = {
      payload: z.object({ thing_id: z.string() }),
      maxAttempts: 5,
      backoffMs: () => 10,
      handler: async () => {
        calls++;
        throw new PermanentFailure("the thing is gone");
      },
      onGiveUp: async (_tx: unknown, payload: { thing_id: string }, error: unknown) => {
        gaveUp.push([payload.thing_id, (error as Error).message]);
      },
    };
    const refused = await insertJob(handle.db, type, { thing_id: 42 });
    const permanent = await insertJob(handle.db, type, { thing_id: "thg_1" });
    const w = startWorker(handle, { types: { [type]: definition }, pollMs: 10 });
    await until(async () =>
      (
        await handle.db
          .select()
          .from(jobs)
          .where(inArray(jobs.id, [refused, permanent]))
      ).every((j) => j.status === "failed"),
    );
    await w.stop();
    expect(calls).toBe(1);
    const rows = await handle.db
      .select()
      .from(jobs)
      .where(inArray(jobs.id, [refused, permanent]));
    expect(rows.map((r) => r.attempts)).toEqual([1, 1]);
    expect(rows.find((r) => r.id === refused)!.lastError).toMatch(/payload does not match/);
    // onGiveUp runs for the job whose payload it can read, not for the refused one.
    expect(gaveUp).toEqual([["thg_1", "the thing is gone"]]);
  });

  test("a job whose worker stopped between claim and completion is finished after a restart", async () => {
    const type = `test_crash_${randomBase62(6)}`;
    const id = await insertJob(handle.db, type, {});
    // The first worker claims the job and never finishes it (as if its process died).
    const stuck = startWorker(handle, {
      types: {
        [type]: { payload: anyPayload, maxAttempts: 5, backoffMs: () => 10, handler: () => new Promise(() => {}) },
      },
      pollMs: 10,
    });
    await until(async () => (await handle.db.select().from(jobs).where(eq(jobs.id, id)))[0]!.status === "running");
    void stuck.stop(); // never resolves: its handler hangs; it claims nothing more
    let finished = 0;
    const restarted = startWorker(second ?? handle, {
      types: {
        [type]: {
          payload: anyPayload,
          maxAttempts: 5,
          backoffMs: () => 10,
          handler: async () => {
            finished++;
          },
        },
      },
      pollMs: 20,
      leaseMs: 300,
    });
    await until(async () => (await handle.db.select().from(jobs).where(eq(jobs.id, id)))[0]!.status === "done");
    await restarted.stop();
    expect(finished).toBe(1);
    const [row] = await handle.db.select().from(jobs).where(eq(jobs.id, id));
    expect(row!.attempts).toBe(2);
  });
});
