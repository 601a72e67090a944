import { execFile } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { promisify } from "node:util";

import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";

import { runCommand } from "@/cli/commands";
import { startOperatorSocket } from "@/cli/operator-socket";
import { auditLogs, recoveryCodes, userFactors, users } from "@/lib/db/schema";

import { startTestApi, type TestApi } from "./helpers/api";
import { scratchDir } from "./helpers/scratch";
import { appFor, signInWithCode } from "./helpers/sign-in";
import { verifySignature } from "./helpers/signature";

const exec = promisify(execFile);
const tsx = path.resolve("node_modules/.bin/tsx");

let api: TestApi;
let operator: { close: () => void } | undefined;
beforeAll(async () => {
  api = await startTestApi();
  // Like the server: while this process holds the embedded database, the CLI must come through it.
  if (api.handle.kind === "pglite") operator = await startOperatorSocket(api.handle);
});
afterAll(async () => {
  operator?.close();
  await api.close();
});

describe("npm run cli", () => {
  test("isv create --json prints the credentials, which authenticate at once (through the running server on PGlite)", async () => {
    const email = `cli-${Date.now()}@example.test`;
    const { stdout } = await exec(
      tsx,
      [
        "cli/index.ts",
        "isv",
        "create",
        "--name",
        "CLI ISV",
        "--email",
        email,
        "--password",
        "a-long-password",
        "--json",
      ],
      {
        env: { ...process.env },
      },
    );
    const out = JSON.parse(stdout);
    expect(out).toMatchObject({ user_email: email });
    expect(out.account_id).toMatch(/^acct_/);
    expect(out.account_sid).toMatch(/^AC[0-9a-f]{32}$/);
    expect(out.secret_key).toMatch(/^sk_test_/);
    const auth = `Basic ${Buffer.from(`${out.account_sid}:${out.secret_key}`).toString("base64")}`;
    const res = await api.call("GET", "/v1/account", { auth });
    expect(res.status).toBe(200);
    expect(res.json.defaults.display_name).toBe("CLI ISV");

    const list = await exec(tsx, ["cli/index.ts", "isv", "list", "--json"], { env: { ...process.env } });
    expect(JSON.parse(list.stdout).map((r: { account_id: string }) => r.account_id)).toContain(out.account_id);
  });

  test("isv rotate-key: the new secret works and the old one is rejected", async () => {
    const isv = await api.newIsv();
    const rotated = await runCommand(api.handle, ["isv", "rotate-key", isv.account_id, "--json"]);
    expect(rotated.code).toBe(0);
    const { secret_key } = JSON.parse(rotated.stdout);
    expect((await api.call("GET", "/v1/account", { auth: isv.auth })).status).toBe(401);
    const fresh = `Basic ${Buffer.from(`${isv.account_sid}:${secret_key}`).toString("base64")}`;
    expect((await api.call("GET", "/v1/account", { auth: fresh })).status).toBe(200);
  });

  test("member factors-reset: a sole owner who lost every factor and code signs in again and sets one up; the log names the operator", async () => {
    const isv = await api.newIsv("Locked-out ISV");
    const app = await appFor(api.db, isv.user_email);
    const before = await signInWithCode(api, { email: isv.user_email, password: isv.password });
    expect(before.status).toBe(200);
    // Its only owner has no one to reset it: without a code, the API refuses it.
    const refused = await api.call("POST", "/v1/auth/token", {
      body: { email: isv.user_email, password: isv.password },
    });
    expect(refused.json.error.code).toBe("second_factor_required");

    expect(await runCommand(api.handle, ["member", "factors-reset"])).toMatchObject({ code: 2 });
    const unknown = await runCommand(api.handle, ["member", "factors-reset", "--email", "nobody@example.test"]);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain("nobody@example.test");
    const done = await runCommand(api.handle, [
      "member",
      "factors-reset",
      "--email",
      isv.user_email.toUpperCase(),
      "--json",
    ]);
    expect(done.code).toBe(0);
    expect(JSON.parse(done.stdout)).toMatchObject({ account_id: isv.account_id, role: "owner", factors_removed: 1 });
    const [{ id }] = (await api.db.select({ id: users.id }).from(users).where(eq(users.email, isv.user_email))) as [
      { id: string },
    ];
    expect(await api.db.select().from(userFactors).where(eq(userFactors.userId, id))).toEqual([]);
    expect(await api.db.select().from(recoveryCodes).where(eq(recoveryCodes.userId, id))).toEqual([]);
    // Its sessions ended; its old recovery codes open nothing; the next sign-in asks for a new factor first.
    expect((await api.call("GET", "/v1/account", { auth: `Bearer ${before.json.access_token}` })).status).toBe(401);
    const withOldCode = await api.call("POST", "/v1/auth/token", {
      body: { email: isv.user_email, password: isv.password, code: app.codes[0] },
    });
    expect(withOldCode.json.error.code).toBe("second_factor_enrolment_required");
    const [entry] = await api.db
      .select()
      .from(auditLogs)
      .where(and(eq(auditLogs.action, "member.factors_reset"), eq(auditLogs.resourceId, id)));
    expect(entry).toMatchObject({ accountId: isv.account_id, actorType: "cli" });
  });

  test("isv create refuses a taken e-mail and a short password", async () => {
    const isv = await api.newIsv();
    const taken = await runCommand(api.handle, [
      "isv",
      "create",
      "--name",
      "X",
      "--email",
      isv.user_email,
      "--password",
      "long-enough-pw",
    ]);
    expect(taken.code).toBe(1);
    expect(taken.stderr).toMatch(/already exists/);
    const short = await runCommand(api.handle, [
      "isv",
      "create",
      "--name",
      "X",
      "--email",
      "new@example.test",
      "--password",
      "short",
    ]);
    expect(short.code).toBe(1);
  });
});

describe("the embedded data directory", () => {
  test("a second process gets a clear error instead of opening it", async () => {
    if (api.handle.kind !== "pglite") return expect(api.handle.kind).toBe("postgres");
    const script = `import { openDatabase } from "./lib/db/client.ts"; openDatabase({ dataDir: process.env.DATA_DIR }).then(() => { console.log("opened"); process.exit(0) }, (e) => { console.error(e.message); process.exit(3) });`;
    const file = path.join(scratchDir("lock-"), "open.ts");
    fs.writeFileSync(file, script.replace("./lib/db/client.ts", path.resolve("lib/db/client.ts")));
    const error = await exec(tsx, [file], { env: { ...process.env } }).catch((e) => e);
    expect(error.code).toBe(3);
    expect(error.stderr).toMatch(/in use by process \d+/);
  });
});

describe("npm run cli -- webhooks listen", () => {
  test("forwards new events to a local URL, signed with the session's secret", async () => {
    const { startReceiver } = await import("./helpers/receiver");
    const { spawn } = await import("node:child_process");
    const isv = await api.newIsv();
    const receiver = await startReceiver();
    const child = spawn(
      tsx,
      [
        "cli/index.ts",
        "webhooks",
        "listen",
        "--forward-to",
        receiver.url,
        "--api-url",
        api.baseUrl,
        "--account-sid",
        isv.account_sid,
        "--secret-key",
        isv.secret_key,
        "--max-events",
        "1",
      ],
      { env: { ...process.env } },
    );
    let stdout = "";
    child.stdout.on("data", (d) => (stdout += d));
    const deadline = Date.now() + 20_000;
    while (!stdout.includes("signing secret") && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    const secret = stdout.match(/(whsec_\S+)/)![1]!;
    const merchant = (await api.call("POST", "/v1/merchants", { auth: isv.auth, body: { phone: "+14155550123" } }))
      .json;
    await new Promise((resolve) => child.once("exit", resolve));
    expect(child.exitCode).toBe(0);
    expect(receiver.received).toHaveLength(1);
    expect(verifySignature(secret, receiver.received[0]!)).toBe(true);
    const event = JSON.parse(receiver.received[0]!.body);
    expect(event).toMatchObject({ type: "merchant.created", data: { object: { id: merchant.id } } });
    expect(stdout).toMatch(/merchant\.created .*→ 200/);
    await receiver.close();
  }, 40_000);
});
