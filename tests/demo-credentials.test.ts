import fs from "node:fs";

import { afterAll, beforeAll, describe, expect, test } from "vitest";

import { demoCredentialsFile, seedOnStart } from "@/lib/domain/accounts/seed-on-start";

import { startTestApi, type TestApi } from "./helpers/api";
import { scratchDir } from "./helpers/scratch";

// The demo ISV's secret key and password go to a file only its owner can read, never to the
// console (whose output a deployment ships to its log collector).

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(() => api.close());

describe("the demo ISV of a new sandbox database", () => {
  test("its credentials are written to DATA_DIR/demo-credentials.env (0600) and the console only says where", async () => {
    const dataDir = scratchDir("onb-demo-");
    const printed: string[] = [];
    await seedOnStart(api.db, { seedDemo: true, dataDir, print: (text) => printed.push(text) });
    const file = demoCredentialsFile(dataDir);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    const vars = Object.fromEntries(
      fs
        .readFileSync(file, "utf8")
        .split("\n")
        .filter((l) => /^[A-Z_]+=/.test(l))
        .map((l) => [l.slice(0, l.indexOf("=")), l.slice(l.indexOf("=") + 1)]),
    );
    expect(vars).toMatchObject({
      ACCOUNT_ID: expect.stringMatching(/^acct_/),
      ACCOUNT_SID: expect.stringMatching(/^AC/),
      SECRET_KEY: expect.stringMatching(/^sk_test_/),
      DEMO_EMAIL: "demo@example.com",
    });
    const output = printed.join("\n");
    expect(output).toContain(file);
    expect(output).not.toContain(vars.SECRET_KEY);
    expect(output).not.toContain(vars.DEMO_PASSWORD);
    // The credentials work.
    const account = await api.call("GET", "/v1/account", {
      auth: `Basic ${Buffer.from(`${vars.ACCOUNT_SID}:${vars.SECRET_KEY}`).toString("base64")}`,
    });
    expect(account.status).toBe(200);
    expect(account.json).toMatchObject({ id: vars.ACCOUNT_ID, name: "Demo ISV" });
    // A second start creates nothing and prints nothing.
    await seedOnStart(api.db, { seedDemo: true, dataDir, print: (text) => printed.push(text) });
    expect(printed).toHaveLength(1);
  });
});
