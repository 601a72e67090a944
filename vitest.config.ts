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

/**
 * Whether a test file needs a module graph of its own: it sets the environment at its top level
 * (before its imports of the app run), replaces a module with `vi.mock`, or says so with the words
 * "own module graph" (a file that counts what the whole process did, as the metrics' test).
 */
const needsOwnGraph = (source: string) =>
  /^(process\.env\.\w+\s*(\?\?)?=|delete process\.env)/m.test(source) ||
  /\bvi\.(mock|doMock)\(/.test(source) ||
  source.includes("own module graph");
/** Where the test files are (`*.test.ts` and `*.test.tsx` beside the code, and under tests/). */
const testDirs = ["lib", "cli", "tests", "components", "app"];
const ownGraphFiles = testDirs
  .flatMap((dir) => fs.readdirSync(dir, { recursive: true, encoding: "utf8" }).map((file) => path.join(dir, file)))
  .filter((file) => /\.test\.tsx?$/.test(file) && needsOwnGraph(fs.readFileSync(file, "utf8")));

export default defineConfig({
  resolve: { alias: { "@": path.resolve(import.meta.dirname) } },
  test: {
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
    // Two projects (below): most files share one module graph per worker; the few that need a graph
    // of their own get one.
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
    // "shared": a worker process imports the app once and runs file after file in it (isolate:
    // false), instead of a new VM context per file that imports the app's ~450 modules again and
    // runs them cold (vmForks, before: measured on the 68 API files, 267 → 134 s; their imports
    // 124 → 12 worker-s, their tests 638 → 365 worker-s, the code staying compiled and optimized
    // from file to file). What a file leaves behind in the process is reset before the next one
    // (tests/setup-env.ts: the environment, `env`, the limit store). "isolated": the files that
    // cannot share, found by reading each file (needsOwnGraph), so a new one cannot be forgotten in
    // a list: those that set the environment before they import the app (a production deployment,
    // other origins, other keys), replace a module (`vi.mock`) or count what the whole process did
    // (the metrics). (In their VM contexts an error thrown by Node's own modules is not
    // `instanceof Error` of the test's realm: check its `code` or message instead.)
    projects: [
      {
        extends: true,
        test: {
          name: "shared",
          include: [`{${testDirs.join(",")}}/**/*.test.{ts,tsx}`],
          exclude: ownGraphFiles,
          pool: "forks",
          isolate: false,
        },
      },
      {
        extends: true,
        test: { name: "isolated", pool: "vmForks", include: ownGraphFiles, env: { TEST_OWN_GRAPH: "1" } },
      },
    ],
    setupFiles: ["tests/setup-env.ts"],
    // Transformed modules kept on disk (node_modules/.experimental-vitest-cache, keyed by content and
    // config): each test file's fork reads the app's ~450 modules from it instead of asking the main
    // process for each, and CI's PostgreSQL pass starts with what the PGlite pass wrote. Measured on
    // a clean cache, PGlite pass: 881 → 817 s; a warm cache halves a file's import (5.2 → 2.5 s).
    experimental: { fsModuleCache: true },
  },
});
