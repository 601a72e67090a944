import { spawn } from "node:child_process";
import http from "node:http";
import type { AddressInfo } from "node:net";

import { startBenchServer, tsx } from "./harness";
import { scaled } from "./short";

export type WebhookBench = {
  kind: string;
  events: number;
  /** POST /v1/merchants with one webhook subscribed, 25 at a time (each writes the merchant, its event, a delivery and its job). */
  createsPerSecond: number;
  deliveriesPerSecond: number;
  p50: number;
  p99: number;
};

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;

/**
 * Events made through the API, delivered by the server's worker to a receiver on loopback; or, with
 * `separateWorker` (PostgreSQL), by `npm run worker` in its own process while the server only
 * answers requests (RUN_WORKER=0): the production layout, where deliveries do not share an event
 * loop with the creates.
 */
export async function benchWebhooks(
  kind: "pglite" | "postgres",
  databaseUrl: string | undefined,
  events = scaled(400, 40),
  options: { separateWorker?: boolean } = {},
): Promise<WebhookBench> {
  const arrivals = new Map<string, number>();
  const created = new Map<string, number>();
  const receiver = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const now = Date.now();
      const event = JSON.parse(Buffer.concat(chunks).toString("utf8"));
      if (!arrivals.has(event.id)) {
        arrivals.set(event.id, now);
        created.set(event.id, Date.parse(event.created_at));
      }
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((r) => receiver.listen(0, "127.0.0.1", r));
  const server = await startBenchServer({
    port: 3450,
    databaseUrl,
    env: options.separateWorker ? { RUN_WORKER: "0" } : undefined,
  });
  const worker =
    options.separateWorker && databaseUrl
      ? spawn(tsx, ["lib/workers/worker-main.ts"], {
          // The server's data directory holds the sandbox's generated secrets (webhook signing secrets are encrypted with them).
          env: {
            ...process.env,
            DATABASE_URL: databaseUrl,
            DATA_DIR: server.dataDir,
            APP_ENV: "sandbox",
            NODE_ENV: "production",
            LOG_LEVEL: "warn",
          },
          stdio: ["ignore", "ignore", "inherit"],
        })
      : null;
  try {
    await server.call("POST", "/v1/webhooks", {
      url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/`,
      scopes: ["merchant"],
    });
    const post = (p: string, body: unknown) => server.call("POST", p, body);
    // The worker is up once it has delivered a first event (made before the measured burst).
    if (worker) {
      await post("/v1/merchants", { phone: "+14155550123" });
      for (const deadline = Date.now() + 60_000; !arrivals.size;) {
        if (Date.now() > deadline || worker.exitCode !== null) throw new Error("the worker did not deliver");
        await new Promise((r) => setTimeout(r, 20));
      }
      arrivals.clear();
      created.clear();
    }
    const started = Date.now();
    let next = 0;
    await Promise.all(
      Array.from({ length: 25 }, async () => {
        while (next++ < events) {
          const res = (await post("/v1/merchants", { phone: "+14155550123" })) as { id?: string };
          if (!res.id) throw new Error(`POST /v1/merchants answered ${JSON.stringify(res)}`);
        }
      }),
    );
    const createsPerSecond = events / ((Date.now() - started) / 1000);
    while (arrivals.size < events) {
      if (Date.now() - started > 120_000) throw new Error(`only ${arrivals.size} of ${events} delivered`);
      await new Promise((r) => setTimeout(r, 20));
    }
    const last = Math.max(...arrivals.values());
    const latencies = [...arrivals].map(([id, at]) => at - created.get(id)!).sort((a, b) => a - b);
    return {
      kind: options.separateWorker ? `${kind} (worker process)` : kind,
      events,
      createsPerSecond,
      deliveriesPerSecond: events / ((last - started) / 1000),
      p50: percentile(latencies, 50),
      p99: percentile(latencies, 99),
    };
  } finally {
    if (worker && worker.exitCode === null) {
      const exited = new Promise((r) => worker.once("exit", r));
      worker.kill("SIGTERM");
      await exited;
    }
    await server.stop();
    receiver.close();
  }
}

export type DrainBench = { kind: string; events: number; deliveriesPerSecond: number };

/**
 * The delivery path alone: 400 events written while no worker runs (RUN_WORKER=0), then a server
 * with its workers started on the same database; deliveries per second from the first arrival to
 * the last. Creating events is not in this figure (it is in the burst's creates/s).
 */
export async function benchWebhookDrain(
  kind: "pglite" | "postgres",
  databaseUrl: string | undefined,
  events = scaled(400, 40),
): Promise<DrainBench> {
  const arrivals: number[] = [];
  const seen = new Set<string>();
  const receiver = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const id = JSON.parse(Buffer.concat(chunks).toString("utf8")).id as string;
      if (!seen.has(id)) {
        seen.add(id);
        arrivals.push(Date.now());
      }
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((r) => receiver.listen(0, "127.0.0.1", r));
  const writer = await startBenchServer({ port: 3451, databaseUrl, env: { RUN_WORKER: "0" } });
  let drainer: Awaited<ReturnType<typeof startBenchServer>> | undefined;
  try {
    await writer.call("POST", "/v1/webhooks", {
      url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/`,
      scopes: ["merchant"],
    });
    let next = 0;
    await Promise.all(
      Array.from({ length: 25 }, async () => {
        while (next++ < events) await writer.call("POST", "/v1/merchants", { phone: "+14155550123" });
      }),
    );
    await writer.stop();
    drainer = await startBenchServer({
      port: 3451,
      databaseUrl,
      reuse: { dataDir: writer.dataDir, auth: writer.auth },
    });
    const started = Date.now();
    while (seen.size < events) {
      if (Date.now() - started > 120_000) throw new Error(`only ${seen.size} of ${events} delivered`);
      await new Promise((r) => setTimeout(r, 20));
    }
    return { kind, events, deliveriesPerSecond: events / (Math.max(1, arrivals.at(-1)! - arrivals[0]!) / 1000) };
  } finally {
    await writer.stop();
    await drainer?.stop();
    receiver.close();
  }
}
