import fs from "node:fs";
import path from "node:path";

import pg from "pg";
import { afterAll, vi } from "vitest";

import { dataDir, scratchBase } from "./helpers/scratch";

// One worker process runs several files in turn (vitest.config.ts: one module graph for all of them
// in the "shared" project, a new VM context for each in the "isolated" one), but process.env is the
// process's own: each file starts from the environment the process began with, not the one the file
// before it left (a file run as production, a database URL of its own, a setting unset).
const initialEnv = (process.env.TEST_INITIAL_ENV ??= JSON.stringify(process.env));
const started = JSON.parse(initialEnv) as Record<string, string>;
for (const name of Object.keys(process.env))
  if (!(name in started) && name !== "TEST_INITIAL_ENV") delete process.env[name];
Object.assign(process.env, started);

// Each test file gets its own scratch directory, removed when the file ends (the servers a file
// starts keep their data directories in it too: tests/helpers/scratch.ts), its own data directory
// there (embedded database, generated keys) and quiet logs.
const scratch = fs.mkdtempSync(path.join(scratchBase(), "onb-test-"));
process.env.TEST_SCRATCH_DIR = scratch;
process.env.DATA_DIR = dataDir("data-");
// Registered first, so run last: after the file's own afterAll hooks have closed what they opened.
afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));
process.env.LOG_LEVEL ??= "silent";
process.env.SEED_DEMO = "0";
// Tests run in the sandbox unless a file says otherwise (on PostgreSQL APP_ENV has no default).
process.env.APP_ENV ??= "sandbox";
// Webhook retries in tests: the contract's schedule, shortened to milliseconds.
process.env.WEBHOOK_RETRY_SCHEDULE_MS ??= "150,150,150,150,150,150,150";
// The sandbox verification provider answers at once in tests (its few seconds are measured by npm run bench).
process.env.VERIFICATION_LATENCY_MS ??= "20";
// Passwords hashed at the test cost (a few ms instead of a third of a CPU-second: about 180 hashes a
// run). Refused in production: the files that run as production say PASSWORD_HASH_COST=standard,
// and tests/production.test.ts holds the standard's parameters.
process.env.PASSWORD_HASH_COST ??= "test";
// The suite's receivers listen on loopback and their answers are checked (tests/sandbox-ssrf.test.ts runs without).
process.env.SANDBOX_WEBHOOK_LOOPBACK ??= "1";

// On PostgreSQL each test file gets its own fresh database on the server of DATABASE_URL, so that
// one file's workers (or a server it kills) never touch another file's jobs.
if (process.env.DATABASE_URL) {
  const base = process.env.DATABASE_URL;
  const name = `t_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(base);
  url.pathname = `/${name}`;
  process.env.DATABASE_URL = url.toString();
  afterAll(async () => {
    const client = new pg.Client({ connectionString: base });
    await client.connect();
    await client.query(`drop database if exists ${name} with (force)`).catch(() => {});
    await client.end();
  });
}

// A worker that runs several files in one module graph (vitest.config.ts, the "shared" project) keeps
// what the file before this one left in the process: read the environment into `env` again, and
// start from an empty limit store (rate limits, sign-in attempts); lib/secrets-store.ts reads the
// keys of this file's own data directory. (A file with a graph of its own, TEST_OWN_GRAPH, sets its
// environment before it imports the app: nothing of the app is imported here for it.)
if (process.env.TEST_OWN_GRAPH !== "1") {
  const { reloadEnvForTests } = await import("@/lib/env");
  reloadEnvForTests();
  await (await import("@/lib/limits")).forgetLimitStore();
}

// TEST_NOW (an ISO instant): the file runs as if it were then (Date only; timers stay real and the
// time moves on from there), so a file bound to "today", "this week" or "this month" is shown to
// hold at a period's edge, whatever the day CI runs (.ci/run runs those files at fixed edges).
if (process.env.TEST_NOW) {
  vi.useFakeTimers({ toFake: ["Date"], now: new Date(process.env.TEST_NOW), shouldAdvanceTime: true });
  afterAll(() => vi.useRealTimers());
}
