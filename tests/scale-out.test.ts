import { randomBytes } from "node:crypto";

import pg from "pg";
import { afterAll, beforeAll, expect, test } from "vitest";

import { startReceiver } from "./helpers/receiver";
import { createIsvWithCli, freePortIn, serverProcesses, until } from "./helpers/server-process";

// The production layout on one PostgreSQL: two API servers that run no jobs (RUN_WORKER=0), one
// `npm run worker` process, one Redis for the rate limits. Load is spread over both servers; one
// is killed (SIGKILL, mid-run, with requests on the wire); the client retries what failed on the
// other with the same Idempotency-Key, as it would behind a load balancer. Nothing may be lost or
// doubled: one merchant per key, every merchant's event delivered exactly once, every job done
// once. Runs in both passes of `npm test`, on a database of its own on the PostgreSQL server.
const ADMIN_URL = process.env.TEST_POSTGRES_ADMIN_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const REDIS_URL = process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379/0";
const database = `scale_${Date.now()}_${randomBytes(3).toString("hex")}`;
const databaseUrl = ADMIN_URL.replace(/\/[^/]*$/, `/${database}`);
const shared = {
  DATABASE_URL: databaseUrl,
  APP_ENV: "sandbox",
  RUN_WORKER: "0",
  REDIS_URL,
  RATE_LIMIT_PER_SECOND: "100000",
  IDEMPOTENCY_CLAIM_TIMEOUT_MS: "3000",
  // The worker is never killed here (the servers run no jobs), so its lease need not be short; at 5 s
  // a loaded CI machine let leases of running deliveries lapse (the job claimed again: attempts 2,
  // the delivery itself still once), failing the "every job done once" check for no bug.
  JOB_LEASE_MS: "30000",
  // Every process on one database must share its keys (generated ones live in each DATA_DIR).
  JWT_SECRET: randomBytes(32).toString("hex"),
  ENCRYPTION_KEY: randomBytes(32).toString("hex"),
};
const a = serverProcesses({ name: "scale-a", portFrom: 3900, ports: 50, env: shared });
const b = serverProcesses({ name: "scale-b", portFrom: 3950, ports: 50, env: shared });

const admin = async <T>(fn: (client: pg.Client) => Promise<T>) => {
  const client = new pg.Client({ connectionString: ADMIN_URL });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
};

beforeAll(async () => {
  await admin((c) => c.query(`create database ${database}`));
});

afterAll(async () => {
  const left = [...(await a.killAll()), ...(await b.killAll())];
  await admin((c) => c.query(`drop database if exists ${database} with (force)`));
  expect(left).toEqual([]);
});

test("two servers and a worker on one PostgreSQL: a server killed mid-run loses and doubles nothing", async () => {
  const receiver = await startReceiver();
  const serverA = await a.start();
  await b.start();
  // The worker's own metrics (METRICS_PORT): it alone delivers webhooks here (RUN_WORKER=0 above).
  const workerMetrics = freePortIn(4000, 50);
  a.startWorker({ METRICS_PORT: String(workerMetrics) });
  const isv = await createIsvWithCli(a.env, "Scale ISV");
  const auth = isv.auth;
  const hook = await fetch(`${b.base}/v1/webhooks`, {
    method: "POST",
    headers: { authorization: auth, "content-type": "application/json" },
    body: JSON.stringify({ url: receiver.url, scopes: ["merchant"] }),
  });
  expect(hook.status).toBe(200);

  const total = 240;
  let killed = false;
  let failedOver = 0;
  let takenOver = 0;
  let done = 0;
  const create = async (i: number): Promise<string> => {
    const key = `scale-${i}`;
    let base = i % 2 === 0 ? a.base : b.base;
    const deadline = Date.now() + 30_000;
    for (;;) {
      if (Date.now() > deadline) throw new Error(`request ${i} never succeeded`);
      try {
        const res = await fetch(`${base}/v1/merchants`, {
          method: "POST",
          headers: { authorization: auth, "content-type": "application/json", "idempotency-key": key },
          body: JSON.stringify({ phone: "+14155550123", agent: i }),
        });
        const body = await res.json();
        if (res.status === 200) return body.id as string;
        // The dead server's claim on this key: free again after IDEMPOTENCY_CLAIM_TIMEOUT_MS.
        if (res.status === 409 && body.error?.code === "idempotency_key_in_use") {
          takenOver++;
          await new Promise((r) => setTimeout(r, 250));
          continue;
        }
        throw new Error(`request ${i}: ${res.status} ${JSON.stringify(body)}`);
      } catch (error) {
        if (error instanceof Error && error.message.startsWith("request ")) throw error;
        // The connection failed or was cut: the other server gets the same request and key.
        failedOver++;
        base = b.base;
      }
    }
  };
  const ids: string[] = new Array(total);
  let next = 0;
  await Promise.all(
    Array.from({ length: 12 }, async () => {
      while (next < total) {
        const i = next++;
        ids[i] = await create(i);
        done++;
        if (done === 80 && !killed) {
          killed = true;
          void a.stop(serverA, "SIGKILL");
        }
      }
    }),
  );
  expect(killed).toBe(true);
  // Requests on the wire to the killed server, or sent to it after the kill, went to the other one.
  expect(failedOver).toBeGreaterThan(0);
  console.error(`scale-out: ${failedOver} requests failed over, ${takenOver} waited for a dead claim`);
  // One merchant per Idempotency-Key, whichever server ran it.
  expect(new Set(ids).size).toBe(total);

  // Every merchant's event arrives; then nothing more arrives (no second delivery of any event).
  await receiver
    .waitFor((r) => new Set(r.map((x) => JSON.parse(x.body).data.object.id)).size >= total, 60_000)
    .catch((error: Error) => {
      throw new Error(`${error.message}\n${a.output().slice(-3000)}`);
    });
  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  try {
    await until(
      async () =>
        (await db.query("select count(*)::int as n from jobs where status <> 'done' and run_at <= now()")).rows[0].n,
      (n) => n === 0,
      30_000,
      "every job due to be done",
    );
    const merchants = await db.query("select id, agent from merchants where isv_account_id = $1", [isv.account_id]);
    expect(merchants.rows).toHaveLength(total);
    expect(new Set(merchants.rows.map((m) => m.agent)).size).toBe(total);
    const events = await db.query("select id from events where account_id = $1 and type = 'merchant.created'", [
      isv.account_id,
    ]);
    expect(events.rows).toHaveLength(total);
    const deliveries = await db.query(
      "select event_id, status, attempts from webhook_deliveries where account_id = $1",
      [isv.account_id],
    );
    expect(deliveries.rows).toHaveLength(total);
    expect(deliveries.rows.filter((d) => d.status !== "succeeded" || d.attempts !== 1)).toEqual([]);
    const jobs = await db.query("select type, status, attempts from jobs where type = 'webhook_delivery'");
    expect(jobs.rows.filter((j) => j.status !== "done" || j.attempts !== 1)).toEqual([]);
  } finally {
    await db.end();
  }
  const perEvent = new Map<string, number>();
  for (const r of receiver.received)
    perEvent.set(r.headers["webhook-id"]!, (perEvent.get(r.headers["webhook-id"]!) ?? 0) + 1);
  expect(perEvent.size).toBe(total);
  expect([...perEvent.values()].filter((n) => n !== 1)).toEqual([]);
  await receiver.close();

  // What the worker says it did is what it did: every delivery counted once, as delivered; its
  // process and pool are measured; a scrape of any other path is refused.
  const scrape = await fetch(`http://127.0.0.1:${workerMetrics}/metrics`);
  expect(scrape.status).toBe(200);
  const text = await scrape.text();
  expect(text).toMatch(new RegExp(`^webhook_deliveries_total\\{outcome="delivered"\\} ${total}$`, "m"));
  expect(text).toMatch(/^webhook_deliveries_total\{outcome="failed"\} 0$/m);
  expect(text).toMatch(/^process_resident_memory_bytes \d+/m);
  expect(text).toMatch(/^db_pool_connections\{state="total"\} [1-9]/m);
  expect(text).toMatch(/^jobs_waiting\{type="webhook_delivery"\} 0$/m);
  expect((await fetch(`http://127.0.0.1:${workerMetrics}/v1/account`)).status).toBe(404);
}, 180_000);
