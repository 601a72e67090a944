import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";

import { afterAll, beforeAll, describe, expect, test } from "vitest";

import { startTestApi, type TestApi } from "../helpers/api";

// What an ISV developer does with the SDK: `npm pack` it, install the tarball into an empty
// project, compile a small program with `tsc --strict` (no @types/node, the SDK's own declarations
// checked too) and run it against the server.

const run = promisify(execFile);
const root = path.join(import.meta.dirname, "../..");
const tsc = path.join(root, "node_modules/.bin/tsc");

let api: TestApi;
let dir: string;

beforeAll(async () => {
  api = await startTestApi({ worker: true });
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "onb-sdk-pack-"));
});
afterAll(async () => {
  await api?.close();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

describe("the packed SDK", () => {
  test("installs into an empty project, compiles with tsc --strict and runs against the server", async () => {
    const packed = await run("npm", ["pack", "--json", "--pack-destination", dir], {
      cwd: path.join(root, "packages/node"),
    });
    const [info] = JSON.parse(packed.stdout) as { filename: string; files: { path: string }[] }[];
    const shipped = info!.files.map((f) => f.path);
    expect(shipped).toContain("dist/index.js");
    expect(shipped).toContain("dist/index.d.ts");
    expect(shipped).toContain("README.md");
    // Neither the sources nor the generator ship: only what runs.
    expect(shipped.filter((f) => !f.startsWith("dist/") && !["README.md", "package.json"].includes(f))).toEqual([]);

    const project = path.join(dir, "project");
    fs.mkdirSync(project);
    fs.writeFileSync(
      path.join(project, "package.json"),
      JSON.stringify({ name: "isv-app", private: true, type: "module" }),
    );
    await run("npm", ["install", "--offline", "--no-audit", "--no-fund", path.join(dir, info!.filename)], {
      cwd: project,
    });

    const isv = await api.newIsv("Packed SDK ISV");
    fs.writeFileSync(
      path.join(project, "main.ts"),
      `import { Onb, OnbNotFoundError, type WebhookEventType } from "@onb/node";

const onb = new Onb({
  baseUrl: ${JSON.stringify(api.baseUrl)},
  accountSid: ${JSON.stringify(isv.account_sid)},
  secretKey: ${JSON.stringify(isv.secret_key)},
});

const merchant = await onb.merchants.create({ phone: "+14155550123" });
const again = await onb.merchants.retrieve(merchant.id);
const ids: string[] = [];
for await (const m of onb.merchants.list({ limit: 1 })) ids.push(m.id);
let missing = "";
try {
  await onb.merchants.retrieve("mer_nobody");
} catch (error) {
  if (error instanceof OnbNotFoundError) missing = error.code;
}
const type: WebhookEventType = "merchant.created";
console.log(JSON.stringify({ id: again.id, status: again.lead_onboarding_status, ids, missing, type, version: onb.apiVersion }));
`,
    );
    fs.writeFileSync(
      path.join(project, "tsconfig.json"),
      JSON.stringify({
        compilerOptions: {
          strict: true,
          target: "es2022",
          module: "nodenext",
          moduleResolution: "nodenext",
          lib: ["es2023", "dom"],
          types: [],
          skipLibCheck: false,
          outDir: "out",
        },
        files: ["main.ts"],
      }),
    );
    await run(tsc, ["-p", "tsconfig.json", "--strict"], { cwd: project });
    const out = await run(process.execPath, ["out/main.js"], { cwd: project });
    const result = JSON.parse(out.stdout.trim()) as Record<string, unknown>;
    expect(result).toMatchObject({
      status: "NOT_STARTED",
      ids: [result.id],
      missing: "resource_missing",
      type: "merchant.created",
      version: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
    });

    // The quickstart's example (examples/sdk/first-payment.mjs), as docs/quickstart.md runs it.
    fs.copyFileSync(path.join(root, "examples/sdk/first-payment.mjs"), path.join(project, "first-payment.mjs"));
    fs.writeFileSync(
      path.join(project, "application.json"),
      fs
        .readFileSync(path.join(root, "lib/schemas/examples/merchant-application.json"), "utf8")
        .replace('"tin": "123456789"', '"tin": "000000000"'),
    );
    const example = await run(process.execPath, ["first-payment.mjs"], {
      cwd: project,
      env: { ...process.env, ONB_BASE_URL: api.baseUrl, ACCOUNT_SID: isv.account_sid, SECRET_KEY: isv.secret_key },
    });
    const lines = example.stdout.trim().split("\n");
    expect(lines[1]).toBe("merchant APPROVED");
    expect(lines).toContainEqual(expect.stringMatching(/^payment paid ch_\w+ 980$/));
    expect(lines).toContainEqual(expect.stringMatching(/^refund re_\w+ 300$/));
    expect(lines).toContain("refused refund_exceeds_charge");
    expect(lines).toContainEqual(expect.stringMatching(/^payout po_\w+ \d+$/));
    const pdfName = `statement-${new Date().toISOString().slice(0, 7)}.pdf`;
    expect(fs.readFileSync(path.join(project, pdfName)).subarray(0, 5).toString()).toBe("%PDF-");

    // A program that misuses the SDK does not compile: the types are real.
    fs.writeFileSync(
      path.join(project, "main.ts"),
      `import { Onb } from "@onb/node";
const onb = new Onb({ baseUrl: "http://127.0.0.1:1" });
await onb.merchants.create({ phone: 4155550123 });
`,
    );
    const refused = await run(tsc, ["-p", "tsconfig.json"], { cwd: project }).catch((e: { stdout: string }) => e);
    expect((refused as { stdout: string }).stdout).toContain("main.ts(3,");
  }, 180_000);
});
