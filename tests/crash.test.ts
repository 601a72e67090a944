import { spawn, execFile, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, expect, test } from "vitest";
import { startReceiver } from "./helpers/receiver";

// The server is killed with SIGKILL while hundreds of webhook deliveries are pending, then
// restarted: every event must still reach the receiver at least once.
const exec = promisify(execFile);
const tsx = path.resolve("node_modules/.bin/tsx");
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "onb-crash-"));
const port = 3600 + Math.floor(Math.random() * 300);
const base = `http://127.0.0.1:${port}`;
const childEnv = {
  ...process.env,
  DATA_DIR: dataDir,
  PORT: String(port),
  HOST: "127.0.0.1",
  PUBLIC_BASE_URL: base,
  SERVE_PAGES: "0",
  JOB_LEASE_MS: "1500",
  LOG_LEVEL: "warn",
  SEED_DEMO: "0",
  NODE_ENV: "production" as const,
};
let server: ChildProcess | undefined;

async function startServer() {
  const child = spawn(tsx, ["server.ts"], { env: childEnv, stdio: ["ignore", "ignore", "pipe"] });
  let stderr = "";
  child.stderr!.on("data", (d) => (stderr += d));
  for (let i = 0; i < 200; i++) {
    if (child.exitCode !== null) throw new Error(`server exited: ${stderr}`);
    try {
      if ((await fetch(`${base}/v1/openapi.json`)).ok) return child;
    } catch {
      /* starting */
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error("server did not start");
}

afterAll(() => {
  server?.kill("SIGKILL");
});

test("SIGKILL with hundreds of pending deliveries: after a restart every event arrives at least once", async () => {
  const receiver = await startReceiver(() => ({ status: 200, delayMs: 40 }));
  server = await startServer();
  const { stdout } = await exec(
    tsx,
    ["cli/index.ts", "isv", "create", "--name", "Crash ISV", "--email", `crash-${Date.now()}@example.test`, "--password", "crash-password-1", "--json"],
    { env: childEnv },
  );
  const isv = JSON.parse(stdout);
  const auth = `Basic ${Buffer.from(`${isv.account_sid}:${isv.secret_key}`).toString("base64")}`;
  const post = (p: string, body: unknown) =>
    fetch(base + p, { method: "POST", headers: { authorization: auth, "content-type": "application/json" }, body: JSON.stringify(body) });
  expect((await post("/v1/webhooks", { url: receiver.url, scopes: ["merchant"] })).status).toBe(200);

  const total = 300;
  for (let i = 0; i < total; i += 20) {
    const batch = await Promise.all(Array.from({ length: 20 }, () => post("/v1/merchants", { phone: "+14155550123" })));
    expect(batch.every((r) => r.status === 200)).toBe(true);
  }
  const pendingAtKill = total - new Set(receiver.received.map((r) => r.headers["webhook-id"])).size;
  server.kill("SIGKILL");
  await new Promise((r) => server!.once("exit", r));
  expect(pendingAtKill).toBeGreaterThan(100);

  server = await startServer();
  const eventIds: string[] = [];
  let cursor: string | undefined;
  for (;;) {
    const res = await fetch(`${base}/v1/events?limit=100&type=merchant.created${cursor ? `&starting_after=${cursor}` : ""}`, {
      headers: { authorization: auth },
    });
    const page = await res.json();
    eventIds.push(...page.data.map((e: { id: string }) => e.id));
    if (!page.has_more) break;
    cursor = page.data.at(-1).id;
  }
  expect(eventIds).toHaveLength(total);
  await receiver.waitFor((r) => eventIds.every((id) => r.some((x) => x.headers["webhook-id"] === id)), 60_000);
  server.kill("SIGTERM");
  await receiver.close();
}, 120_000);
