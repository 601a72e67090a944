import { spawnSync } from "node:child_process";
import path from "node:path";

import { describe, expect, test } from "vitest";

// Every entry point reads lib/env.ts first: its refusals are each entry point's.
const tsx = path.resolve("node_modules/.bin/tsx");
function start(entry: string, env: Record<string, string | undefined>) {
  const clean = Object.fromEntries(
    Object.entries({ ...process.env, ...env }).filter(([, v]) => v !== undefined),
  ) as NodeJS.ProcessEnv;
  for (const [k, v] of Object.entries(env)) if (v === undefined) delete clean[k];
  return spawnSync(tsx, [entry], { env: clean, encoding: "utf8", timeout: 30_000, input: "" });
}

describe("the environment every entry point starts from", () => {
  test.each(["lib/workers/worker-main.ts", "cli/index.ts"])(
    "%s on PostgreSQL without APP_ENV refuses to start, saying why",
    (entry) => {
      const run = start(entry, { APP_ENV: undefined, DATABASE_URL: "postgres://nobody@127.0.0.1:1/none" });
      expect(run.status).not.toBe(0);
      expect(run.stderr).toContain("APP_ENV must be set to sandbox or production when DATABASE_URL is set");
    },
  );

  test.each(["lib/workers/worker-main.ts", "cli/index.ts"])(
    "%s in production without its keys refuses to start, whatever NODE_ENV",
    (entry) => {
      const run = start(entry, {
        APP_ENV: "production",
        NODE_ENV: "development",
        JWT_SECRET: undefined,
        ENCRYPTION_KEY: undefined,
        DATABASE_URL: undefined,
      });
      expect(run.status).not.toBe(0);
      expect(run.stderr).toContain("APP_ENV=production needs JWT_SECRET and ENCRYPTION_KEY");
    },
  );

  test.each([
    ["INSTRUMENTATION", "off", "INSTRUMENTATION=off is for the bench's baseline"],
    ["PASSWORD_HASH_COST", "test", "PASSWORD_HASH_COST=test is for the test suites"],
  ])("production refuses what only the bench or the tests may use: %s=%s", (name, value, message) => {
    const run = start("cli/index.ts", {
      APP_ENV: "production",
      JWT_SECRET: "a".repeat(64),
      ENCRYPTION_KEY: "b".repeat(64),
      [name]: value,
      DATABASE_URL: "postgres://nobody@127.0.0.1:1/none",
    });
    expect(run.status).not.toBe(0);
    expect(run.stderr).toContain(message);
  });
});
