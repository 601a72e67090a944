import { execFile } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { promisify } from "node:util";

import { sql } from "drizzle-orm";
import { afterAll, expect, test } from "vitest";

import { openDatabase } from "@/lib/db/client";

import { application } from "./helpers/fixtures";
import { startReceiver } from "./helpers/receiver";
import { program, serverProcesses, until } from "./helpers/server-process";
import { nextCode } from "./helpers/sign-in";

// A whole onboarding through the real server process, its log output captured (at debug level),
// then every table of its database read back: no secret, token or full sensitive number may be in
// either. Independent of the code under test: the secrets are the ones this test sent or received.
const exec = promisify(execFile);
const servers = serverProcesses({ name: "logs", portFrom: 3900, ports: 90, env: { LOG_LEVEL: "debug" } });
const { base, env: childEnv, dataDir } = servers;

afterAll(async () => {
  expect(await servers.killAll()).toEqual([]);
});

test("a whole onboarding leaves no secret, token or full number in the logs or at rest", async () => {
  // As if made with a permissive umask: the server must close it.
  fs.chmodSync(dataDir, 0o755);
  const password = "logs-password-123";
  const { stdout } = await exec(
    process.execPath,
    [
      ...program("cli/index.ts"),
      "isv",
      "create",
      "--name",
      "Logs ISV",
      "--email",
      `logs-${Date.now()}@example.test`,
      "--password",
      password,
      "--json",
    ],
    { env: childEnv },
  );
  const isv = JSON.parse(stdout);
  // The owner's authenticator app, set up before the server holds the database (its keys encrypt it).
  const enrolled = await exec(process.execPath, ["--import", "tsx", "tests/helpers/enrol-app-cli.ts", isv.user_email], {
    env: childEnv,
  });
  const totp = JSON.parse(enrolled.stdout) as { secret: string; lastStep: number; codes: string[] };
  const server = await servers.start();
  const auth = `Basic ${Buffer.from(`${isv.account_sid}:${isv.secret_key}`).toString("base64")}`;
  const call = async (method: string, p: string, body?: unknown, authorization = auth) => {
    const res = await fetch(base + p, {
      method,
      redirect: "manual",
      headers: { authorization, ...(body ? { "content-type": "application/json" } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    return {
      status: res.status,
      json: res.headers.get("content-type")?.includes("json") ? await res.json() : undefined,
      headers: res.headers,
    };
  };

  const receiver = await startReceiver();
  const hook = (await call("POST", "/v1/webhooks", { url: receiver.url, scopes: ["merchant"] })).json;
  const token = (await call("POST", "/v1/auth/token", { email: isv.user_email, password, code: nextCode(totp) }, ""))
    .json.access_token as string;
  const app = application();
  const merchant = (await call("POST", "/v1/merchants", { phone: "+14155550123", merchant: app })).json;
  const link = (
    await call("POST", "/v1/onboarding_links", {
      merchant_id: merchant.id,
      type: "account_onboarding",
      return_url: "https://isv.example/done",
    })
  ).json;
  const linkToken = new URL(link.url).pathname.split("/").pop()!;
  const opened = await fetch(base + new URL(link.url).pathname, { redirect: "manual" });
  const sessionToken = opened.headers.get("set-cookie")!.match(/onboarding_session=([^;]+)/)![1]!;
  const session = `Bearer ${sessionToken}`;
  expect((await call("PATCH", "/v1/onboarding/session", { device: { catalog_id: "pax-a920" } }, session)).status).toBe(
    200,
  );
  // A refused save with the full numbers in it: logged nowhere either.
  expect(
    (
      await call(
        "PATCH",
        "/v1/onboarding/session",
        { merchant: { bank_account: { account_number: "000123456789", routing_number: "12" } } },
        session,
      )
    ).status,
  ).toBe(400);
  expect((await call("POST", "/v1/onboarding/session/agreement", { name: "Mei Chen" }, session)).status).toBe(200);
  expect((await call("POST", "/v1/onboarding/session/submit", undefined, session)).status).toBe(200);
  const approved = await until(
    async () => (await call("GET", `/v1/merchants/${merchant.id}`, undefined, `Bearer ${token}`)).json,
    (m) => m.lead_onboarding_status === "APPROVED",
    20_000,
    "approval",
  );
  expect(approved.payment_keys.api_key).toMatch(/^\*+/);
  await receiver.waitFor((r) => r.length >= 3);

  // A payment: a card tokenized and paid, and a refused card (an invalid number with its CVC).
  const pk = `Bearer ${approved.payment.tokenizer_publishable_key}`;
  const pr = (await call("POST", "/v1/scan_to_pay", { merchant_id: merchant.id, amount: 1234 })).json;
  const cardToken = (
    await call(
      "POST",
      "/v1/tokens",
      { card: { number: "5555 5555 5555 4444", exp_month: 11, exp_year: 2033, cvc: "987" } },
      pk,
    )
  ).json;
  expect(cardToken.card.last4).toBe("4444");
  expect(
    (
      await call(
        "POST",
        "/v1/tokens",
        { card: { number: "4242424242424241", exp_month: 11, exp_year: 2033, cvc: "9875" } },
        pk,
      )
    ).status,
  ).toBe(400);
  const paid = (
    await call("POST", `/v1/payment_requests/${pr.id}/pay`, { token: cardToken.id, email: "diner@example.com" }, "")
  ).json;
  expect(paid.outcome).toBe("paid");
  await receiver.close();

  await servers.stop(server, "SIGTERM");
  const output = servers.output();

  const secrets: Record<string, string> = {
    "owner one's SSN": app.owner_one.ssn,
    "owner two's SSN": app.owner_two.ssn,
    TIN: app.tin,
    "account number": app.bank_account.account_number,
    "ISV secret key": isv.secret_key,
    "ISV password": password,
    "sign-in JWT": token,
    "authenticator app secret": totp.secret,
    "recovery code": totp.codes[0]!,
    "onboarding link token": linkToken,
    "onboarding session JWT": sessionToken,
    "webhook secret": hook.secret.replace(/^whsec_/, ""),
    "card number": "5555555555554444",
    "card number as typed": "5555 5555 5555 4444",
    "refused card number": "4242424242424241",
    CVC: '"cvc"',
  };
  expect(output.length).toBeGreaterThan(1000); // the logs were really captured
  expect(output).toContain(`"path":"/v1/merchants"`);
  const inLogs = Object.entries(secrets).filter(([, value]) => output.includes(value));
  expect(inLogs.map(([name]) => name)).toEqual([]);

  // At rest: every column of every table, as text.
  const handle = await openDatabase({ databaseUrl: process.env.DATABASE_URL, dataDir, poolSize: 1, migrate: false });
  try {
    const tables = await handle.db.execute(
      sql`select table_name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE'`,
    );
    const names = (((tables as { rows?: unknown[] }).rows ?? tables) as { table_name: string }[]).map(
      (t) => t.table_name,
    );
    expect(names).toEqual(
      expect.arrayContaining([
        "merchants",
        "events",
        "accounts",
        "api_keys",
        "webhooks",
        "outbox",
        "onboarding_links",
        "jobs",
        "card_tokens",
        "charges",
        "payment_requests",
      ]),
    );
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

  // On disk: nothing in the data directory (the database, its WAL, the generated keys) is readable
  // or writable by anyone but the owner, whatever the umask the server was started with.
  if (!process.env.DATABASE_URL) {
    const open: string[] = [];
    const walk = (p: string) => {
      const stat = fs.lstatSync(p);
      if (stat.mode & 0o077) open.push(`${path.relative(dataDir, p) || "."} ${(stat.mode & 0o777).toString(8)}`);
      if (stat.isDirectory()) for (const name of fs.readdirSync(p)) walk(path.join(p, name));
    };
    walk(dataDir);
    expect(fs.existsSync(path.join(dataDir, "pgdata"))).toBe(true);
    expect(open).toEqual([]);
  }
}, 120_000);
