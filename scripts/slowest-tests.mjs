// The ten slowest Vitest files and browser journeys of a run, from the JSON reports that the test
// runners write when TEST_TIMINGS_DIR is set (vitest.config.ts, playwright.config.ts). .ci/run prints
// it last, so whoever finds a pass grown sees where to look first.
// Usage: node scripts/slowest-tests.mjs <label>=<dir> [<label>=<dir> ...]
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";

const seconds = (ms) => `${(ms / 1000).toFixed(1)} s`;
const relative = (file) => path.relative(process.cwd(), file);

/** Vitest's report: one entry per file, with its start and end. */
function vitestFiles(report) {
  return report.testResults.map((file) => ({ name: relative(file.name), ms: file.endTime - file.startTime }));
}

/** Playwright's report: suites (files, then describes) of specs, each test's attempts with their durations. */
function journeys(report) {
  const found = [];
  const walk = (suite, file) => {
    for (const spec of suite.specs ?? []) {
      const ms = spec.tests.flatMap((t) => t.results).reduce((sum, r) => sum + r.duration, 0);
      found.push({ name: `${spec.file ?? file} › ${spec.title}`, ms });
    }
    for (const child of suite.suites ?? []) walk(child, suite.file ?? file);
  };
  for (const suite of report.suites) walk(suite, suite.file);
  return found;
}

function top(label, rows) {
  const slowest = rows.sort((a, b) => b.ms - a.ms).slice(0, 10);
  const line = slowest.map((r) => `${r.name} ${seconds(r.ms)}`).join("; ");
  console.log(`== ten slowest ${label}: ${line || "none ran"}`);
}

for (const argument of process.argv.slice(2)) {
  const [label, dir] = argument.split("=");
  const vitest = path.join(dir, "vitest.json");
  const e2e = path.join(dir, "journeys.json");
  if (existsSync(vitest)) top(`Vitest files (${label})`, vitestFiles(JSON.parse(readFileSync(vitest, "utf8"))));
  if (existsSync(e2e)) top(`journeys (${label})`, journeys(JSON.parse(readFileSync(e2e, "utf8"))));
}
