import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, expect, test } from "vitest";
import { startTestApi, type TestApi } from "../helpers/api";

const exec = promisify(execFile);
let api: TestApi;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(() => api.close());

test("GET /v1/openapi.json lints clean with @redocly/cli (recommended rules)", async () => {
  const res = await api.call("GET", "/v1/openapi.json");
  expect(res.status).toBe(200);
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "openapi-")), "openapi.json");
  fs.writeFileSync(file, res.text);
  const result = await exec(path.resolve("node_modules/.bin/redocly"), ["lint", file, "--config", path.resolve("redocly.yaml"), "--format", "json"], {
    env: { ...process.env, REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true" },
    maxBuffer: 20 * 1024 * 1024,
  }).catch((e) => e);
  const report = JSON.parse(result.stdout);
  const errors = report.problems.filter((p: { severity: string }) => p.severity === "error");
  expect(errors.map((p: { message: string; location: unknown }) => `${p.message} ${JSON.stringify(p.location)}`)).toEqual([]);
  const warnings = report.problems.filter((p: { severity: string }) => p.severity === "warn");
  expect(warnings.map((p: { ruleId: string; message: string }) => `${p.ruleId}: ${p.message}`)).toEqual([]);
}, 120_000);

test("every operation has a summary, a tag and documented errors", async () => {
  const doc = (await api.call("GET", "/v1/openapi.json")).json;
  for (const [p, item] of Object.entries<Record<string, any>>(doc.paths)) {
    for (const [method, op] of Object.entries<any>(item)) {
      expect(op.summary, `${method} ${p}`).toBeTruthy();
      expect(op.tags?.length, `${method} ${p}`).toBeGreaterThan(0);
      expect(Object.keys(op.responses), `${method} ${p}`).toContain("400");
    }
  }
});
