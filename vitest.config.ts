import fs from "node:fs";
import path from "node:path";

import { defineConfig } from "vitest/config";
import { BaseSequencer, type TestSpecification } from "vitest/node";

/**
 * The longest files first: the ledger's property test (300 sequences on PGlite in CI) and the seeded
 * month of 1,000 charges run for minutes, so they start at once and the other files share the other
 * worker beside them, instead of starting late and running on alone at the end (a clean clone has no
 * timings to order by). The rest in vitest's own order.
 */
class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]) {
    const sorted = await super.sort(files);
    const longest = [
      "tests/api/ledger-properties/part-1.test.ts",
      "tests/api/ledger-properties/part-2.test.ts",
      "tests/api/ledger-properties/part-3.test.ts",
      "tests/api/revenue-month.test.ts",
    ];
    const first = longest.flatMap((name) => sorted.filter((f) => f.moduleId.endsWith(name)));
    return [...first, ...sorted.filter((f) => !first.includes(f))];
  }
}

export default defineConfig({
  resolve: { alias: { "@": path.resolve(import.meta.dirname) } },
  test: {
    include: ["{lib,cli,tests,components,app}/**/*.test.{ts,tsx}"],
    // Two instances restarted in turn need a database they share: collected on PostgreSQL runs only.
    // The packed SDK's install and strict compile (tests/sdk/pack.test.ts, 60-90 s) prove the
    // package, which no database changes: the PGlite pass runs it, the PostgreSQL pass does not.
    // PERIOD_BOUND_AT_EDGES=1 (CI's PGlite pass): the files bound to "today", "this week" or "this
    // month" are left to `npm run test:edges`, which runs them on PGlite at two period edges; the
    // PostgreSQL pass runs them at the real now (docs/decisions.md, "A suite that does not depend on
    // the day it runs").
    exclude: [
      "**/node_modules/**",
      ...(process.env.DATABASE_URL ? ["tests/sdk/pack.test.ts"] : ["tests/rolling-restart.test.ts"]),
      ...(process.env.PERIOD_BOUND_AT_EDGES === "1" && !process.env.DATABASE_URL
        ? fs.readFileSync("tests/period-bound.txt", "utf8").split("\n").filter(Boolean)
        : []),
    ],
    // A focused test committed by mistake fails the run instead of silently skipping the rest.
    allowOnly: false,
    environment: "node",
    // API suites share one database per worker file; PGlite is single-writer, so files run one per worker.
    // Three at once on CI's 2 cores: the files spend a third of their time waiting (servers they
    // start, receivers, retries), and a third file fills it (measured: 195 → 177 s on PGlite,
    // 160 → 149 s on PostgreSQL; four were slower than three).
    // vmForks: a worker process runs several files in turn, each in a new VM context, instead of a new
    // process for every file (measured, 20 API files: their imports 58 → 32 worker-s; the whole
    // PGlite suite 537 → 443 s). The process is shared: tests/setup-env.ts gives each file the
    // environment the process started with. In a VM context an error thrown by Node's own modules is
    // not `instanceof Error` of the test's realm: check its `code` or message instead.
    pool: "vmForks",
    fileParallelism: true,
    maxWorkers: 3,
    testTimeout: 30_000,
    hookTimeout: 60_000,
    globalSetup: ["tests/global-setup.ts"],
    // TEST_TIMINGS_DIR (.ci/run sets it): each file's time kept as JSON too, for the slowest-ten line
    // that CI prints last (scripts/slowest-tests.mjs).
    reporters: process.env.TEST_TIMINGS_DIR
      ? ["default", ["json", { outputFile: path.join(process.env.TEST_TIMINGS_DIR, "vitest.json") }]]
      : ["default"],
    sequence: { sequencer: LongestFirst },
    setupFiles: ["tests/setup-env.ts"],
    // Transformed modules kept on disk (node_modules/.experimental-vitest-cache, keyed by content and
    // config): each test file's fork reads the app's ~450 modules from it instead of asking the main
    // process for each, and CI's PostgreSQL pass starts with what the PGlite pass wrote. Measured on
    // a clean cache, PGlite pass: 881 → 817 s; a warm cache halves a file's import (5.2 → 2.5 s).
    experimental: { fsModuleCache: true },
  },
});
