import { spawn, execFile, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, expect, test } from "vitest";
import { sql } from "drizzle-orm";
import { openDatabase } from "@/lib/db/client";
import { application } from "./helpers/fixtures";
import { startReceiver } from "./helpers/receiver";

// A whole onboarding through the real server process, its log output captured (at debug level),
// then every table of its database read back: no secret, token or full sensitive number may be in
// either. Independent of the code under test: the secrets are the ones this test sent or received.
const exec = promisify(execFile);
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "onb-logs-"));
const port = 3900 + Math.floor(Math.random() * 90);
const base = `http://127.0.0.1:${port}`;
const childEnv = {
  ...process.env,
  DATA_DIR: dataDir,
  PORT: String(port),
  HOST: "127.0.0.1",
  PUBLIC_BASE_URL: base,
  SERVE_PAGES: "0",
  LOG_LEVEL: "debug",
  SEED_DEMO: "0",
  NODE_ENV: "production" as const,
};
let server: ChildProcess | undefined;
let output = "";

const groupAlive = (pid: number) => {
  try {
    process.kill(-pid, 0);
    return true;
  } catch {
    return false;
  }
};

async function until<T>(read: () => Promise<T>, done: (v: T) => boolean, what: string, timeoutMs = 20_000): Promise<T> {
  const start = Date.now();
  for (;;) {
    const v = await read().catch(() => undefined as T);
    if (v !== undefined && done(v)) return v;
    if (Date.now() - start > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

afterAll(async () => {
  if (server && groupAlive(server.pid!)) process.kill(-server.pid!, "SIGKILL");
  await until(
    async () => !server || !groupAlive(server.pid!),
    (gone) => gone,
    "the server to be gone",
  );
});

test("a whole onboarding leaves no secret, token or full number in the logs or at rest", async () => {
  server = spawn(process.execPath, ["--import", "tsx", "server.ts"], { env: childEnv, stdio: ["ignore", "pipe", "pipe"], detached: true });
  server.stdout!.on("data", (d) => (output += d));
  server.stderr!.on("data", (d) => (output += d));
  await until(() => fetch(`${base}/v1/openapi.json`).then((r) => r.ok), Boolean, "the server to start", 30_000);

  const password = "logs-password-123";
  const { stdout } = await exec(
    process.execPath,
    ["--import", "tsx", "cli/index.ts", "isv", "create", "--name", "Logs ISV", "--email", `logs-${Date.now()}@example.test`, "--password", password, "--json"],
    { env: childEnv },
  );
  const isv = JSON.parse(stdout);
  const auth = `Basic ${Buffer.from(`${isv.account_sid}:${isv.secret_key}`).toString("base64")}`;
  const call = async (method: string, p: string, body?: unknown, authorization = auth) => {
    const res = await fetch(base + p, {
      method,
      redirect: "manual",
      headers: { authorization, ...(body ? { "content-type": "application/json" } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    return { status: res.status, json: res.headers.get("content-type")?.includes("json") ? await res.json() : undefined, headers: res.headers };
  };

  const receiver = await startReceiver();
  const hook = (await call("POST", "/v1/webhooks", { url: receiver.url, scopes: ["merchant"] })).json;
  const token = (await call("POST", "/v1/auth/token", { email: isv.user_email, password }, "")).json.access_token as string;
  const app = application();
  const merchant = (await call("POST", "/v1/merchants", { phone: "+14155550123", merchant: app })).json;
  const link = (await call("POST", "/v1/onboarding_links", { merchant_id: merchant.id, type: "account_onboarding", return_url: "https://isv.example/done" }))
    .json;
  const linkToken = new URL(link.url).pathname.split("/").pop()!;
  const opened = await fetch(base + new URL(link.url).pathname, { redirect: "manual" });
  const sessionToken = opened.headers.get("set-cookie")!.match(/onboarding_session=([^;]+)/)![1]!;
  const session = `Bearer ${sessionToken}`;
  expect((await call("PATCH", "/v1/onboarding/session", { device: { catalog_id: "pax-a920" } }, session)).status).toBe(200);
  // A refused save with the full numbers in it: logged nowhere either.
  expect(
    (await call("PATCH", "/v1/onboarding/session", { merchant: { bank_account: { account_number: "000123456789", routing_number: "12" } } }, session)).status,
  ).toBe(400);
  expect((await call("POST", "/v1/onboarding/session/agreement", { name: "Mei Chen" }, session)).status).toBe(200);
  expect((await call("POST", "/v1/onboarding/session/submit", undefined, session)).status).toBe(200);
  const approved = await until(
    async () => (await call("GET", `/v1/merchants/${merchant.id}`, undefined, `Bearer ${token}`)).json,
    (m) => m.lead_onboarding_status === "APPROVED",
    "approval",
  );
  expect(approved.payment_keys.api_key).toMatch(/^\*+/);
  await receiver.waitFor((r) => r.length >= 3);
  await receiver.close();

  process.kill(-server.pid!, "SIGTERM");
  await until(async () => !groupAlive(server!.pid!), Boolean, "the server to stop");

  const secrets: Record<string, string> = {
    "owner one's SSN": app.owner_one.ssn,
    "owner two's SSN": app.owner_two.ssn,
    TIN: app.tin,
    "account number": app.bank_account.account_number,
    "ISV secret key": isv.secret_key,
    "ISV password": password,
    "sign-in JWT": token,
    "onboarding link token": linkToken,
    "onboarding session JWT": sessionToken,
    "webhook secret": hook.secret.replace(/^whsec_/, ""),
  };
  expect(output.length).toBeGreaterThan(1000); // the logs were really captured
  expect(output).toContain(`"path":"/v1/merchants"`);
  const inLogs = Object.entries(secrets).filter(([, value]) => output.includes(value));
  expect(inLogs.map(([name]) => name)).toEqual([]);

  // At rest: every column of every table, as text.
  const handle = await openDatabase({ databaseUrl: process.env.DATABASE_URL, dataDir, poolSize: 1, migrate: false });
  try {
    const tables = await handle.db.execute(sql`select table_name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE'`);
    const names = (((tables as { rows?: unknown[] }).rows ?? tables) as { table_name: string }[]).map((t) => t.table_name);
    expect(names).toEqual(expect.arrayContaining(["merchants", "events", "accounts", "api_keys", "webhooks", "outbox", "onboarding_links", "jobs"]));
    const found: string[] = [];
    for (const name of names) {
      const rows = await handle.db.execute(sql.raw(`select row_to_json(t)::text as row from "${name}" t`));
      const text = (((rows as { rows?: unknown[] }).rows ?? rows) as { row: string }[]).map((r) => r.row).join("\n");
      for (const [what, value] of Object.entries(secrets)) {
        // The session JWT and sign-in JWT are never stored; the rest must not be stored in the clear.
        if (text.includes(value)) found.push(`${what} in ${name}`);
      }
    }
    expect(found).toEqual([]);
  } finally {
    await handle.close();
  }
}, 120_000);
