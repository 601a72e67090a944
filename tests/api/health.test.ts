import { readdirSync } from "node:fs";

import { afterAll, beforeAll, expect, test } from "vitest";

import { createLimitStore } from "@/lib/limits";
import { expectedMigrations, readiness } from "@/lib/ops/health";

import { startTestApi, type TestApi } from "../helpers/api";

// GET /healthz and /readyz (docs/reference.md section 17): no credentials, never cached, and
// /readyz names what is not ready with a 503.

const REDIS_URL = process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379/0";
let api: TestApi;
const stores: ReturnType<typeof createLimitStore>[] = [];
beforeAll(async () => {
  api = await startTestApi();
}, 60_000);
afterAll(async () => {
  await api.close().catch(() => undefined); // its database was closed by the last test
  for (const store of stores) await store.close();
});
const probe = async (path: string) => {
  const res = await fetch(api.baseUrl + path);
  return { status: res.status, cache: res.headers.get("cache-control"), body: await res.json() };
};

test("the build's journal lists every committed migration", () => {
  expect(expectedMigrations()).toBe(readdirSync("lib/db/migrations").filter((f) => f.endsWith(".sql")).length);
});

test("ready: 200 with every check named; liveness asks nothing of anyone", async () => {
  expect(await probe("/readyz")).toEqual({
    status: 200,
    cache: "no-store",
    body: { status: "ready", checks: { database: "ok", migrations: "ok", redis: "not configured" } },
  });
  expect(await probe("/healthz")).toEqual({ status: 200, cache: "no-store", body: { status: "ok" } });
});

test("a migration this build carries but the database lacks: not ready, said with the counts", async () => {
  const n = expectedMigrations();
  // As if this instance ran a build one migration ahead of its database (the tests' shared
  // PostgreSQL is not touched: the expected count is raised instead).
  expect(await readiness(api.handle, createLimitStore(), { expected: n + 1 })).toEqual({
    ready: false,
    checks: { database: "ok", migrations: `pending: ${n} of ${n + 1} applied`, redis: "not configured" },
  });
  expect((await readiness(api.handle, createLimitStore(), { expected: n })).ready).toBe(true);
});

test("Redis configured: ready while it answers, not ready naming it when it does not", async () => {
  const live = createLimitStore({ redisUrl: REDIS_URL, prefix: `health-${Date.now()}` });
  const dead = createLimitStore({ redisUrl: "redis://127.0.0.1:1/0", prefix: "health-dead" });
  stores.push(live, dead);
  await live.ready();
  expect(await readiness(api.handle, live)).toEqual({
    ready: true,
    checks: { database: "ok", migrations: "ok", redis: "ok" },
  });
  expect(await readiness(api.handle, dead, { timeoutMs: 500 })).toEqual({
    ready: false,
    checks: { database: "ok", migrations: "ok", redis: "unreachable" },
  });
});

// Last: it closes the file's database.
test("the database gone: 503 naming it; liveness still answers", async () => {
  await api.handle.close();
  const res = await probe("/readyz");
  expect(res.status).toBe(503);
  expect(res.body.status).toBe("unavailable");
  // Named, but without the driver's words (no codes, hosts or users to anyone without credentials).
  expect(res.body.checks.database).toBe("unreachable");
  expect(res.body.checks.migrations).toBe("unknown");
  expect((await probe("/healthz")).status).toBe(200);
});
