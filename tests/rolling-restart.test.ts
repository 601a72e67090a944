import { randomBytes } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";

import pg from "pg";
import { afterAll, beforeAll, expect, test } from "vitest";

import type { TestApi } from "./helpers/api";
import { approvedMerchant, tokenize } from "./helpers/payments";
import { startReceiver } from "./helpers/receiver";
import { createIsvWithCli, serverProcesses, until } from "./helpers/server-process";

// A rolling restart (docs/reference.md section 17): two instances on one PostgreSQL database behind
// a small loopback proxy, steady load (merchants created with idempotency keys, payments, refunds),
// and each instance restarted in turn with SIGTERM. Nothing may be lost: no failed request, every
// event's webhook delivered exactly once, every idempotent request answered once.
//
// Two instances need a database they share: PostgreSQL. This file is collected only when the run
// is on PostgreSQL (vitest.config.ts); it uses a database of its own there.

const admin = process.env.DATABASE_URL!;
const dbName = `rolling_${Date.now()}`;
const databaseUrl = admin.replace(/\/[^/]*$/, `/${dbName}`);
// Instances behind one address share their keys, as production requires (JWT_SECRET, ENCRYPTION_KEY):
// a session signed by one is read by the other.
const env = {
  DATABASE_URL: databaseUrl,
  JWT_SECRET: randomBytes(32).toString("base64url"),
  ENCRYPTION_KEY: randomBytes(32).toString("hex"),
  RATE_LIMIT_PER_SECOND: "100000",
  TOKENS_PER_ADDRESS_PER_MINUTE: "100000",
  VERIFICATION_LATENCY_MS: "20",
};
const a = serverProcesses({ name: "rolling-a", portFrom: 4700, ports: 100, env });
const b = serverProcesses({ name: "rolling-b", portFrom: 4800, ports: 100, env });

beforeAll(async () => {
  const client = new pg.Client({ connectionString: admin });
  await client.connect();
  await client.query(`create database ${dbName}`);
  await client.end();
});
afterAll(async () => {
  expect([...(await a.killAll()), ...(await b.killAll())]).toEqual([]);
  const client = new pg.Client({ connectionString: admin });
  await client.connect();
  await client.query(`drop database if exists ${dbName} with (force)`);
  await client.end();
});

/**
 * The proxy: each request to the next instance in turn, on a connection of its own; an instance
 * that refuses the connection (it stopped accepting) is skipped, as a load balancer does. Any other
 * failure is answered 502 and counted: a request an instance accepted must be answered.
 */
async function startProxy(ports: number[]) {
  let turn = 0;
  // Instances taken out of rotation before their restart (the README's procedure): no new request
  // goes to them; what they already have must still be answered.
  const draining = new Set<number>();
  // Requests still being sent to each port (connecting, or not yet written): a balancer's
  // deregistration waits them out before the instance is stopped.
  const sending = new Map<number, number>();
  const failures: string[] = [];
  const forward = (port: number, req: http.IncomingMessage, body: Buffer) =>
    new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
      sending.set(port, (sending.get(port) ?? 0) + 1);
      let sent = false;
      const done = () => {
        if (!sent) sending.set(port, sending.get(port)! - 1);
        sent = true;
      };
      const up = http.request(
        { host: "127.0.0.1", port, method: req.method, path: req.url, headers: req.headers, agent: false },
        (res) => {
          const chunks: Buffer[] = [];
          res.on("data", (c: Buffer) => chunks.push(c));
          res.on("end", () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
          res.on("error", reject);
        },
      );
      up.on("finish", done);
      up.on("error", (error) => {
        done();
        reject(error);
      });
      up.end(body);
    });
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", async () => {
      const body = Buffer.concat(chunks);
      for (let attempt = 0; attempt < 40; attempt++) {
        const port = ports[turn++ % ports.length]!;
        if (draining.has(port)) continue;
        try {
          const answer = await forward(port, req, body);
          const headers = { ...answer.headers };
          delete headers.connection;
          delete headers["transfer-encoding"];
          res.writeHead(answer.status, headers).end(answer.body);
          return;
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code === "ECONNREFUSED") {
            if (attempt % ports.length === ports.length - 1) await new Promise((r) => setTimeout(r, 100));
            continue;
          }
          failures.push(`${req.method} ${req.url}: ${(error as Error).message}`);
          res.writeHead(502).end();
          return;
        }
      }
      failures.push(`${req.method} ${req.url}: no instance accepted`);
      res.writeHead(502).end();
    });
  });
  // A balancer keeps its clients' connections open far longer than Node's 5 s default: with the
  // default, the proxy closed a kept-alive connection at the moment the test's client sent its next
  // request on it ("other side closed", CI, 1 run in 3), a failure of this harness, not of an instance.
  server.keepAliveTimeout = 120_000;
  server.headersTimeout = 121_000;
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return {
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    failures,
    /**
     * Out of rotation: no new request goes to the port, and the requests already being sent to it
     * are written (the instance holds them when it is told to stop, and must answer them), with a
     * moment for it to read them. Back in: requests go to it again.
     */
    drain: async (port: number, on: boolean) => {
      if (!on) {
        draining.delete(port);
        return;
      }
      draining.add(port);
      await until(
        () => sending.get(port) ?? 0,
        (n) => n === 0,
        10_000,
        "the requests being sent to the drained instance",
      );
      await new Promise((r) => setTimeout(r, 100));
    },
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

function client(base: string) {
  return {
    baseUrl: base,
    async call(
      method: string,
      path: string,
      init: { auth?: string; body?: unknown; headers?: Record<string, string> } = {},
    ) {
      const res = await fetch(base + path, {
        method,
        headers: {
          ...(init.auth ? { authorization: init.auth } : {}),
          ...(init.body !== undefined ? { "content-type": "application/json" } : {}),
          ...init.headers,
        },
        body: init.body === undefined ? undefined : JSON.stringify(init.body),
        redirect: "manual",
      });
      const text = await res.text();
      let json: any;
      try {
        json = text ? JSON.parse(text) : undefined;
      } catch {
        json = undefined;
      }
      return { status: res.status, headers: res.headers, text, json };
    },
  } as unknown as TestApi;
}

test("two instances restarted in turn under load: no failed request, no lost or doubled delivery, every idempotent request answered once", async () => {
  await Promise.all([a.start(), b.start()]);
  const proxy = await startProxy([a.port, b.port]);
  const receiver = await startReceiver();
  try {
    const api = client(proxy.base);
    const isv = await createIsvWithCli(a.env, "Rolling ISV");
    const hook = await api.call("POST", "/v1/webhooks", {
      auth: isv.auth,
      body: { url: receiver.url, scopes: ["merchant", "charge"] },
    });
    expect(hook.status).toBe(200);
    const merchant = await approvedMerchant(api, isv);

    // Steady load: 4 clients, each creating a merchant (with an idempotency key), taking a payment
    // and refunding part of it, again and again, until both instances have been restarted.
    let stop = false;
    const problems: string[] = [];
    const created = new Map<string, string>(); // idempotency key → merchant id
    let payments = 0;
    const loop = async (n: number) => {
      for (let i = 0; !stop; i++) {
        const key = `rolling-${n}-${i}`;
        const made = await api.call("POST", "/v1/merchants", {
          auth: isv.auth,
          body: { phone: "+14155550123" },
          headers: { "idempotency-key": key },
        });
        if (made.status !== 200) problems.push(`create ${key}: ${made.status} ${made.text.slice(0, 200)}`);
        else created.set(key, made.json.id);
        const pr = await api.call("POST", "/v1/scan_to_pay", {
          auth: isv.auth,
          body: { merchant_id: merchant.id, amount: 1000 + i },
        });
        if (pr.status !== 200) {
          problems.push(`scan_to_pay: ${pr.status} ${pr.text.slice(0, 200)}`);
          continue;
        }
        let token: string;
        try {
          token = await tokenize(api, merchant.publishableKey);
        } catch (error) {
          problems.push(`token: ${(error as Error).message}`);
          continue;
        }
        const paid = await api.call("POST", `/v1/payment_requests/${pr.json.id}/pay`, { body: { token } });
        if (paid.status !== 200 || paid.json.outcome !== "paid") {
          problems.push(`pay: ${paid.status} ${paid.text.slice(0, 200)}`);
          continue;
        }
        payments++;
        const refund = await api.call("POST", "/v1/refunds", {
          auth: isv.auth,
          body: { charge_id: paid.json.charge.id, amount: 100 },
          headers: { "idempotency-key": `refund-${key}` },
        });
        if (refund.status !== 200) problems.push(`refund: ${refund.status} ${refund.text.slice(0, 200)}`);
      }
    };
    const load = Promise.all([0, 1, 2, 3].map(loop));

    // Each instance in turn, as the README says: out of the proxy's rotation, SIGTERM while the
    // requests it holds are in flight, exit 0 within the grace, started again on its port, back in.
    await new Promise((r) => setTimeout(r, 2000));
    for (const servers of [a, b]) {
      const [child] = servers.started.slice(-1);
      const exited = new Promise<number | null>((resolve) => child!.once("exit", (code) => resolve(code)));
      await proxy.drain(servers.port, true);
      process.kill(-child!.pid!, "SIGTERM");
      expect(await exited).toBe(0);
      await servers.start();
      await proxy.drain(servers.port, false);
      await new Promise((r) => setTimeout(r, 1500));
    }
    stop = true;
    await load;

    expect(proxy.failures).toEqual([]);
    expect(problems).toEqual([]);
    expect(payments).toBeGreaterThan(4);

    // Every idempotent create answered once: its key replays the same merchant, and no key made two.
    for (const [key, id] of [...created].slice(0, 20)) {
      const again = await api.call("POST", "/v1/merchants", {
        auth: isv.auth,
        body: { phone: "+14155550123" },
        headers: { "idempotency-key": key },
      });
      expect([again.json.id, again.headers.get("idempotent-replayed")]).toEqual([id, "true"]);
    }
    const check = new pg.Client({ connectionString: databaseUrl });
    await check.connect();
    try {
      const merchants = await check.query("select count(*)::int as n from merchants where isv_account_id = $1", [
        isv.account_id,
      ]);
      expect(merchants.rows[0].n).toBe(created.size + 1);

      // Every event delivered exactly once: none lost, none doubled, whichever instance's worker sent it.
      const events = await check.query<{ id: string }>("select id from events where account_id = $1", [isv.account_id]);
      const expected = new Set(events.rows.map((r) => r.id));
      await receiver.waitFor((r) => new Set(r.map((x) => x.headers["webhook-id"])).size >= expected.size, 60_000);
      const seen = receiver.received.map((r) => r.headers["webhook-id"]!);
      expect(new Set(seen)).toEqual(expected);
      expect(seen.length).toBe(expected.size);
      // And no job is left behind: none claimed, failed, or due and not run (tomorrow's scheduled ones wait).
      await until(
        async () =>
          (
            await check.query(
              "select count(*)::int as n from jobs where status in ('running', 'failed') or (status = 'queued' and run_at < now() - interval '5 seconds')",
            )
          ).rows[0].n as number,
        (n) => n === 0,
        30_000,
        "every due job to be done",
      );
    } finally {
      await check.end();
    }
  } finally {
    await receiver.close();
    await proxy.close();
  }
}, 240_000);
