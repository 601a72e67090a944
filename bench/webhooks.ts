import { spawn, execFile, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import type { AddressInfo } from "node:net";
import { promisify } from "node:util";

const exec = promisify(execFile);
const tsx = path.resolve("node_modules/.bin/tsx");

export type WebhookBench = { kind: string; events: number; deliveriesPerSecond: number; p50: number; p99: number };

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;

/** Events made through the API, delivered by the server's worker to a receiver on loopback. */
export async function benchWebhooks(kind: "pglite" | "postgres", databaseUrl: string | undefined, events = 400): Promise<WebhookBench> {
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
  const port = 3450;
  const base = `http://127.0.0.1:${port}`;
  const env = {
    ...process.env, DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), "onb-bench-wh-")), PORT: String(port), HOST: "127.0.0.1", PUBLIC_BASE_URL: base,
    SERVE_PAGES: "0", LOG_LEVEL: "warn", SEED_DEMO: "0", RATE_LIMIT_PER_SECOND: "1000000", NODE_ENV: "production",
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
  } as NodeJS.ProcessEnv;
  if (!databaseUrl) delete env.DATABASE_URL;
  const server: ChildProcess = spawn(tsx, ["server.ts"], { env, stdio: ["ignore", "ignore", "inherit"] });
  try {
    for (let i = 0; ; i++) {
      try {
        if ((await fetch(`${base}/v1/openapi.json`)).ok) break;
      } catch {
        /* starting */
      }
      if (i > 300) throw new Error("server did not start");
      await new Promise((r) => setTimeout(r, 100));
    }
    const { stdout } = await exec(tsx, ["cli/index.ts", "isv", "create", "--name", "Bench", "--email", `wh-${Date.now()}@example.test`, "--password", "bench-password-1", "--json"], { env });
    const isv = JSON.parse(stdout);
    const auth = `Basic ${Buffer.from(`${isv.account_sid}:${isv.secret_key}`).toString("base64")}`;
    const post = (p: string, body: unknown) => fetch(base + p, { method: "POST", headers: { authorization: auth, "content-type": "application/json" }, body: JSON.stringify(body) });
    await post("/v1/webhooks", { url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/`, scopes: ["merchant"] });
    const started = Date.now();
    for (let i = 0; i < events; i += 10) await Promise.all(Array.from({ length: 10 }, () => post("/v1/merchants", { phone: "+14155550123" })));
    while (arrivals.size < events) {
      if (Date.now() - started > 120_000) throw new Error(`only ${arrivals.size} of ${events} delivered`);
      await new Promise((r) => setTimeout(r, 20));
    }
    const last = Math.max(...arrivals.values());
    const latencies = [...arrivals].map(([id, at]) => at - created.get(id)!).sort((a, b) => a - b);
    return { kind, events, deliveriesPerSecond: events / ((last - started) / 1000), p50: percentile(latencies, 50), p99: percentile(latencies, 99) };
  } finally {
    server.kill("SIGTERM");
    await new Promise((r) => server.once("exit", r));
    receiver.close();
  }
}
