import { randomBytes } from "node:crypto";

import pg from "pg";
import { afterAll, beforeAll, expect, test } from "vitest";

import { openDatabase } from "@/lib/db/client";
import { type DatabaseHandle } from "@/lib/db/types";

import { until } from "./helpers/until";

// Workers and pay pages are woken by LISTEN/NOTIFY on one connection per process. When PostgreSQL
// drops that connection (a restart, a network cut, an operator's pg_terminate_backend), it must
// come back and LISTEN again, or every process polls from then on. On a PostgreSQL database of its
// own, in both passes of `npm test`.
const ADMIN_URL = process.env.TEST_POSTGRES_ADMIN_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const database = `listen_${Date.now()}_${randomBytes(3).toString("hex")}`;
const url = ADMIN_URL.replace(/\/[^/]*$/, `/${database}`);
let handle: DatabaseHandle;

const admin = async (text: string, values: unknown[] = []) => {
  const client = new pg.Client({ connectionString: ADMIN_URL });
  await client.connect();
  try {
    return (await client.query(text, values)).rows;
  } finally {
    await client.end();
  }
};

beforeAll(async () => {
  await admin(`create database ${database}`);
  handle = await openDatabase({ databaseUrl: url, dataDir: "memory://", poolSize: 2, migrate: false });
});

afterAll(async () => {
  await handle?.close();
  await admin(`drop database if exists ${database} with (force)`);
});

test("a LISTEN connection PostgreSQL cut is made again, and notifications arrive again", async () => {
  const received: string[] = [];
  await handle.listen("test_wake", (payload) => received.push(payload));
  await until(
    async () => (await handle.query("select pg_notify('test_wake', 'before')"), received),
    (r) => r.includes("before"),
    5000,
    "the first notification",
  );
  const cut = await admin(
    "select pg_terminate_backend(pid) as done from pg_stat_activity where datname = $1 and query like 'listen %'",
    [database],
  );
  expect(cut).toHaveLength(1);
  await until(
    async () => (await handle.query("select pg_notify('test_wake', 'after')"), received),
    (r) => r.includes("after"),
    10_000,
    "a notification after the cut",
  );
});
