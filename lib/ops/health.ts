import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

import { sql } from "drizzle-orm";

import type { DatabaseHandle } from "../db/types";
import type { LimitStore } from "../limits";
import { log } from "../log";

// GET /healthz and /readyz (docs/reference.md section 17): cheap enough for a probe every second.
// Liveness is the process answering; readiness is what a request needs: the database answering,
// every committed migration applied, and Redis when one is configured.

const journal = path.join(path.dirname(fileURLToPath(import.meta.url)), "../db/migrations/meta/_journal.json");
/** The migrations this build carries (drizzle-kit's journal). */
export const expectedMigrations = (): number =>
  (JSON.parse(readFileSync(journal, "utf8")) as { entries: unknown[] }).entries.length;

export type Readiness = { ready: boolean; checks: Record<"database" | "migrations" | "redis", string> };

const within = <T>(promise: Promise<T>, ms: number, what: string) =>
  Promise.race([
    promise,
    new Promise<never>((_, reject) =>
      setTimeout(() => reject(new Error(`${what} did not answer in ${ms} ms`)), ms).unref(),
    ),
  ]);

/** Migrations once seen applied stay applied: later probes ask the database only whether it answers. */
let migratedSeen: number | null = null;

export async function readiness(
  handle: DatabaseHandle,
  limits: LimitStore,
  options: { timeoutMs?: number; expected?: number } = {},
): Promise<Readiness> {
  const timeoutMs = options.timeoutMs ?? 2000;
  const expected = options.expected ?? expectedMigrations();
  const checks: Readiness["checks"] = { database: "ok", migrations: "ok", redis: "not configured" };
  try {
    await within(handle.db.execute(sql`select 1`), timeoutMs, "the database");
  } catch (error) {
    // The probe needs no credentials: it names the failing part, never the driver's message (codes,
    // hosts, users); the detail goes to the log.
    log.error({ err: error }, "readiness: the database did not answer");
    checks.database = "unreachable";
    checks.migrations = "unknown";
  }
  if (checks.database === "ok" && migratedSeen !== expected) {
    try {
      const result = await within(
        handle.db.execute(sql`select count(*)::int as n from drizzle.__drizzle_migrations`),
        timeoutMs,
        "the database",
      );
      const applied = Number((result as unknown as { rows: { n: number }[] }).rows[0]?.n ?? 0);
      if (applied >= expected) migratedSeen = expected;
      else checks.migrations = `pending: ${applied} of ${expected} applied`;
    } catch (error) {
      log.error({ err: error }, "readiness: the migrations could not be read");
      checks.migrations = "unknown";
    }
  }
  if (limits.kind === "redis") checks.redis = (await limits.ping(timeoutMs)) ? "ok" : "unreachable";
  const ready = checks.database === "ok" && checks.migrations === "ok" && checks.redis !== "unreachable";
  return { ready, checks };
}
