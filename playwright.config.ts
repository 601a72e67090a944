import fs from "node:fs";
import path from "node:path";

import { defineConfig, devices } from "@playwright/test";

import { scratchBase } from "./tests/helpers/scratch";

// Browser journeys run against the real server (`npm start` after `npm run build`) in Debian's
// Chromium: browsers cannot be downloaded here. The server gets its own data directory, or the
// PostgreSQL server of DATABASE_URL.
// The journeys run in the sandbox (on PostgreSQL APP_ENV has no default); the CLI the helpers run inherits it.
process.env.APP_ENV ??= "sandbox";
// Passwords hashed at the test suites' cost (lib/env.ts), by the server and by the CLI the helpers run.
process.env.PASSWORD_HASH_COST ??= "test";
const port = Number(process.env.E2E_PORT ?? 3210);
// The server's data directory in memory (/dev/shm) where the machine has it, as the Vitest suites'
// (tests/helpers/scratch.ts): the journeys wait on the embedded database's writes otherwise.
const dataDir = process.env.E2E_DATA_DIR ?? fs.mkdtempSync(path.join(scratchBase(), "onb-e2e-"));
// Made here (not handed in): removed when the run ends, as it lives in memory.
if (!process.env.E2E_DATA_DIR) process.once("exit", () => fs.rmSync(dataDir, { recursive: true, force: true }));
process.env.E2E_DATA_DIR = dataDir;
export const baseURL = `http://127.0.0.1:${port}`;

export default defineConfig({
  testDir: "e2e",
  globalSetup: "./e2e/global-setup.ts",
  // Budgets that fit a loaded 2-core machine (CI runs two workers beside the server).
  timeout: 90_000,
  expect: { timeout: 10_000 },
  // Tests, not files, are what the two workers share: a long file no longer runs on alone at the end
  // of a pass while the other worker idles (measured: 37-62 % of the CPU idle in a pass's last 1.5
  // minutes). Each journey makes its own ISV; the files whose tests share one (a beforeAll) say so
  // with test.describe.configure({ mode: "default" }) and keep their tests in one worker, in order.
  fullyParallel: true,
  forbidOnly: true,
  workers: 2,
  retries: 0,
  // TEST_TIMINGS_DIR (.ci/run sets it): each journey's time kept as JSON too (scripts/slowest-tests.mjs).
  reporter: process.env.TEST_TIMINGS_DIR
    ? [["list"], ["json", { outputFile: path.join(process.env.TEST_TIMINGS_DIR, "journeys.json") }]]
    : [["list"]],
  use: {
    baseURL,
    trace: "retain-on-failure",
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
      ],
    },
  },
  projects: [{ name: "chromium", use: { ...devices["Desktop Chrome"], channel: undefined } }],
  webServer: {
    command: "npx tsx server.ts",
    url: `${baseURL}/v1/openapi.json`,
    reuseExistingServer: false,
    timeout: 120_000,
    stdout: "ignore",
    stderr: "pipe",
    env: {
      NODE_ENV: "production",
      APP_ENV: process.env.APP_ENV,
      PASSWORD_HASH_COST: process.env.PASSWORD_HASH_COST,
      PORT: String(port),
      HOST: "127.0.0.1",
      PUBLIC_BASE_URL: baseURL,
      DATA_DIR: dataDir,
      SEED_DEMO: "0",
      // The terminal journey waits for the "pay on your phone" fallback: a short wait here.
      TERMINAL_CARD_TIMEOUT_SECONDS: "4",
      LOG_LEVEL: "warn",
      ...(process.env.DATABASE_URL ? { DATABASE_URL: process.env.DATABASE_URL } : {}),
    },
  },
});
