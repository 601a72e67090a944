import net from "node:net";

import { eq } from "drizzle-orm";
import { afterAll, expect, test } from "vitest";

import { openDatabase } from "@/lib/db/client";
import { jobs, webhookDeliveries } from "@/lib/db/schema";

import { startReceiver } from "./helpers/receiver";
import { createIsvWithCli, serverProcesses, until } from "./helpers/server-process";

// The real server process (node --import tsx server.ts, in a process group of its own) is killed
// with SIGKILL while hundreds of deliveries are pending and some are on the wire, then started
// again: every event must reach the receiver at least once, with no process left behind.
//
// On the embedded database only the restarted server's re-queueing of orphaned jobs can recover
// the deliveries that were running (the lease is longer than the test); on PostgreSQL, where
// other workers may be alive, recovery is the lease, so it is short there.
// The 300 creates go out 20 at a time as fast as the server answers, above the default 200 per
// second per account: this test is about crashes, not the rate limit (tests/api/rate-limit.test.ts).
const servers = serverProcesses({
  name: "crash",
  portFrom: 3600,
  ports: 300,
  env: { JOB_LEASE_MS: process.env.DATABASE_URL ? "1500" : "600000", RATE_LIMIT_PER_SECOND: "100000" },
});
const { base, env: childEnv, dataDir, port } = servers;

const portOpen = () =>
  new Promise<boolean>((resolve) => {
    const socket = net.connect(port, "127.0.0.1");
    socket.once("connect", () => (socket.destroy(), resolve(true)));
    socket.once("error", () => resolve(false));
  });

afterAll(async () => {
  // Proven, not hoped: no process of any server this file started survives it.
  expect(await servers.killAll()).toEqual([]);
});

test("SIGKILL of the whole server with deliveries pending and on the wire: after a restart every event arrives", async () => {
  // Every answer is held until the kill, however fast or slow this machine is: before it, no
  // delivery can succeed, so all 300 are pending or on the wire (claimed, the receiver holding the
  // answer) by construction. After the restart, quick answers.
  let killed = false;
  let releaseHeld = () => {};
  const held = new Promise<void>((resolve) => (releaseHeld = resolve));
  const receiver = await startReceiver(() => ({ status: 200, after: killed ? undefined : held, delayMs: 20 }));
  const first = await servers.start();
  const { auth } = await createIsvWithCli(childEnv, "Crash ISV");
  const post = (p: string, body: unknown) =>
    fetch(base + p, {
      method: "POST",
      headers: { authorization: auth, "content-type": "application/json" },
      body: JSON.stringify(body),
    });
  expect((await post("/v1/webhooks", { url: receiver.url, scopes: ["merchant"] })).status).toBe(200);

  const total = 300;
  for (let i = 0; i < total; i += 20) {
    const statuses = (
      await Promise.all(Array.from({ length: 20 }, () => post("/v1/merchants", { phone: "+14155550123" })))
    ).map((r) => r.status);
    expect(statuses).toEqual(Array(20).fill(200));
  }
  // Some deliveries are in flight (claimed, the receiver holding the answer) when the kill comes.
  await until(() => receiver.received.length > 0, Boolean, 20_000, "the first delivery to be on the wire");
  const onTheWire = new Set(receiver.received.map((r) => r.headers["webhook-id"])).size;
  await servers.stop(first, "SIGKILL");
  killed = true;
  releaseHeld(); // to sockets the kill closed: none of these answers reaches anyone
  expect(await portOpen()).toBe(false);
  // None delivered; at most the endpoint's concurrency on the wire; the rest pending.
  expect(onTheWire).toBeGreaterThan(0);
  expect(total - onTheWire).toBeGreaterThan(100);

  const second = await servers.start();
  expect(second.pid).not.toBe(first.pid);
  const eventIds: string[] = [];
  let cursor: string | undefined;
  for (;;) {
    const res = await fetch(
      `${base}/v1/events?limit=100&type=merchant.created${cursor ? `&starting_after=${cursor}` : ""}`,
      {
        headers: { authorization: auth },
      },
    );
    const page = await res.json();
    eventIds.push(...page.data.map((e: { id: string }) => e.id));
    if (!page.has_more) break;
    cursor = page.data.at(-1).id;
  }
  expect(eventIds).toHaveLength(total);
  await receiver.waitFor((r) => {
    const seen = new Set(r.map((x) => x.headers["webhook-id"]));
    return eventIds.every((id) => seen.has(id));
  }, 90_000);

  // Stop the server and read what it left: every delivery succeeded, no job is stuck running.
  await servers.stop(second, "SIGTERM");
  await receiver.close();
  const handle = await openDatabase({ databaseUrl: process.env.DATABASE_URL, dataDir, poolSize: 1, migrate: false });
  try {
    const deliveries = await handle.db.select({ status: webhookDeliveries.status }).from(webhookDeliveries);
    expect(deliveries).toHaveLength(total);
    expect(deliveries.filter((d) => d.status !== "succeeded")).toEqual([]);
    expect(await handle.db.select({ id: jobs.id }).from(jobs).where(eq(jobs.status, "running"))).toEqual([]);
  } finally {
    await handle.close();
  }
}, 180_000);
