import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";

import { afterAll, beforeAll, expect, test, vi } from "vitest";

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
  const result = await exec(
    path.resolve("node_modules/.bin/redocly"),
    ["lint", file, "--config", path.resolve("redocly.yaml"), "--format", "json"],
    {
      env: { ...process.env, REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true" },
      maxBuffer: 20 * 1024 * 1024,
    },
  ).catch((e) => e);
  const report = JSON.parse(result.stdout);
  const errors = report.problems.filter((p: { severity: string }) => p.severity === "error");
  expect(
    errors.map((p: { message: string; location: unknown }) => `${p.message} ${JSON.stringify(p.location)}`),
  ).toEqual([]);
  const warnings = report.problems.filter((p: { severity: string }) => p.severity === "warn");
  expect(warnings.map((p: { ruleId: string; message: string }) => `${p.ruleId}: ${p.message}`)).toEqual([]);
}, 120_000);

test("the /docs page's own reader (Scalar's workspace store) loads the document with no validation error, and the page names its icon", async () => {
  const doc = (await api.call("GET", "/v1/openapi.json")).json;
  const { createWorkspaceStore } = await import("@scalar/workspace-store/client");
  const warned: unknown[][] = [];
  const warn = vi.spyOn(console, "warn").mockImplementation((...args: unknown[]) => void warned.push(args));
  const info = vi.spyOn(console, "info").mockImplementation(() => {});
  try {
    await createWorkspaceStore().addDocument({ name: "api", document: doc });
  } finally {
    warn.mockRestore();
    info.mockRestore();
  }
  // What the page logs for an invalid object: "document validation errors: " then the list (path, message).
  const invalid = warned.flatMap((args) =>
    Array.isArray(args[1] ?? args[0]) ? ((args[1] ?? args[0]) as unknown[]) : [],
  );
  expect(invalid.map((e) => (e as { path: string }).path)).toEqual([]);
  expect(warned).toEqual([]);
  // No request of the page answers 404: the browser's icon is the app's (not /favicon.ico).
  expect((await api.call("GET", "/docs")).text).toContain('<link rel="icon" href="/icon.svg" type="image/svg+xml">');
});

test("every operation has a summary, a tag, a unique operationId and documented errors; every event is in `webhooks` with its resource", async () => {
  const doc = (await api.call("GET", "/v1/openapi.json")).json;
  const ids: string[] = [];
  for (const [p, item] of Object.entries<Record<string, any>>(doc.paths)) {
    for (const [method, op] of Object.entries<any>(item)) {
      expect(op.operationId, `${method} ${p}`).toMatch(/^[a-z][A-Za-z0-9]+$/);
      ids.push(op.operationId);
      expect(op.summary, `${method} ${p}`).toBeTruthy();
      expect(op.tags?.length, `${method} ${p}`).toBeGreaterThan(0);
      expect(Object.keys(op.responses), `${method} ${p}`).toContain("400");
    }
  }
  expect(new Set(ids).size).toBe(ids.length);
  expect(doc.paths["/v1/merchants"].post.operationId).toBe("createMerchant");
  const { eventTypes, eventCatalogue } = await import("@/lib/events/catalogue");
  expect(Object.keys(doc.webhooks).sort()).toEqual([...eventTypes].sort());
  const charge = doc.webhooks["charge.paid"].post;
  expect(charge.requestBody.content["application/json"].schema.allOf[1].properties.data.properties.object).toEqual({
    $ref: "#/components/schemas/Charge",
  });
  expect(charge.parameters.map((h: any) => h.name)).toEqual(["webhook-id", "webhook-timestamp", "webhook-signature"]);
  for (const type of eventTypes) {
    const ref =
      doc.webhooks[type].post.requestBody.content["application/json"].schema.allOf[1].properties.data.properties.object
        .$ref;
    expect(doc.components.schemas[ref.split("/").pop()], `${type} → ${eventCatalogue[type].resource}`).toBeDefined();
  }
});

test("the guides are served as pages, and every /docs address the API's messages and document give answers", async () => {
  const changelog = await api.call("GET", "/docs/changelog");
  expect(changelog.status).toBe(200);
  expect(changelog.headers.get("content-type")).toContain("text/html");
  expect(changelog.headers.get("content-security-policy")).toContain("default-src 'none'");
  expect(changelog.text).toContain("<h1>API changelog</h1>");
  const guide = await api.call("GET", "/docs/guide");
  expect(guide.text).toContain('<h2 id="section-19">19. ');
  expect(guide.text).not.toMatch(/<script/i);
  // An unknown version's message points to the served changelog, not to a file of the repository.
  const isv = await api.newIsv();
  const refused = await api.call("GET", "/v1/account", { auth: isv.auth, headers: { "Onb-Version": "1999-01-01" } });
  expect(refused.status).toBe(400);
  expect(refused.json.error.message).toContain("/docs/changelog");
  expect(refused.json.error.message).not.toContain(".md");
  // Every /docs address in the OpenAPI document (descriptions) is a page that answers.
  const doc = (await api.call("GET", "/v1/openapi.json")).text;
  expect(doc).not.toMatch(/docs\/[a-z-]+\.md/);
  const addresses = [...new Set([...doc.matchAll(/\/docs\/([a-z]+)/g)].map((m) => m[0]))];
  expect(addresses).toContain("/docs/guide");
  for (const address of addresses) expect((await api.call("GET", address)).status, address).toBe(200);
  // A link from one guide to another goes to its page.
  expect(changelog.text).toContain('href="/docs/guide#section-22"');
});
