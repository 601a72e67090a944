import { sql } from "drizzle-orm";

import { rowsOf } from "../db/client";
import type { JobRow } from "../db/schema";
import type { DatabaseHandle } from "../db/types";

const JOB_COLUMNS = sql.raw(
  "id, type, payload, status, attempts, max_attempts, priority, run_at, locked_at, last_error, concurrency_keys, created_at",
);

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

export type ClaimOptions = {
  typeNames: string[];
  /** A job running longer than this (its worker died) is claimed again. */
  leaseMs: number;
  /** Caps per concurrency key, by the key's prefix ({ "host:": 16 }). */
  keyLimits?: Record<string, number>;
};

/**
 * How one worker takes jobs: FOR UPDATE SKIP LOCKED, so any number of workers (in this process or
 * others, on one PostgreSQL) never take one job twice at once; a job whose lease ran out is taken
 * again. With key caps, the worker counts the jobs it holds per key (`hold`) and does not take
 * jobs whose key is full, so one slow destination or one busy account cannot take every slot.
 */
export function jobClaimer(handle: DatabaseHandle, { typeNames, leaseMs, keyLimits }: ClaimOptions) {
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

  async function lockAndTake(which: ReturnType<typeof sql>, limit: number): Promise<JobRow[]> {
    const result = await handle.db.execute(sql`
      update jobs set status = 'running', locked_at = now(), attempts = attempts + 1
      where id in (select id from jobs where ${which} order by priority, run_at limit ${limit} for update skip locked)
      returning ${JOB_COLUMNS}`);
    return rowsOf<Record<string, unknown>>(result).map(toJobRow);
  }

  return {
    /** Counts a job in hand (+1) or finished (-1) against its keys. */
    hold(job: JobRow, delta: number) {
      for (const key of job.concurrencyKeys) {
        const n = (holding.get(key) ?? 0) + delta;
        if (n > 0) holding.set(key, n);
        else holding.delete(key);
      }
    },

    /** Up to `limit` ready jobs, marked running (one more attempt each). */
    async claim(limit: number): Promise<JobRow[]> {
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
    },
  };
}
