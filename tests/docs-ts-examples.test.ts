import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

import { afterAll, beforeAll, describe, expect, test } from "vitest";

import { startTestApi, type TestApi } from "./helpers/api";
import { onboardMerchant, openLink } from "./helpers/onboarding";
import { approvedMerchant, payRequest } from "./helpers/payments";

// Every TypeScript example of the READMEs and the guides (issue 71: the SDK's first example once sent
// a field the API refuses) is compiled with the SDK's types (`tsc`, strict, as the SDK's README
// promises "tsc refuses a wrong field") and run, in its document's order, with the SDK against the
// real HTTP app. The names the prose explains and the example does not define (`merchant_id`,
// `charge_id`, `card`, `sessionToken`, `publishableKey`, `onb`...) are given real values here (for
// `tsc`, their types); the sandbox's address in an example is this test's server; and the step the
// prose asks of a person ("When it is approved") is done where the example says it. A block that
// starts a server (`.listen(`) is compiled, not run. An example this runner cannot read fails: write
// it so it can. The React examples (tsx) are compiled, not run.

const ROOT = path.resolve(import.meta.dirname, "..");
const SDK = path.join(ROOT, "packages/node/src/index.ts");
const REACT = path.join(ROOT, "packages/react/src/index.tsx");
const DOCS = [
  "packages/node/README.md",
  "README.md",
  "docs/quickstart.md",
  "docs/embedding.md",
  "packages/react/README.md",
] as const;
const SANDBOX_ADDRESS = /"http:\/\/localhost:3000"/g;
const PERSON_STEP = /^\/\/ .*When it is approved.*$/m;

type Block = { doc: string; index: number; code: string; tsx: boolean };

function blocksOf(doc: string): Block[] {
  const markdown = fs.readFileSync(path.join(ROOT, doc), "utf8");
  return [...markdown.matchAll(/^```(tsx?)\n([\s\S]*?)^```/gm)].map((m, index) => ({
    doc,
    index,
    code: m[2] ?? "",
    tsx: m[1] === "tsx",
  }));
}

const blocks = DOCS.flatMap(blocksOf);
const imports = (code: string) => code.split("\n").filter((l) => /^import\s/.test(l));
const body = (code: string) =>
  code
    .split("\n")
    .filter((l) => !/^import\s/.test(l))
    .join("\n");
const sdkImport = (line: string) =>
  line.replace(/"@onb\/node"/, JSON.stringify(SDK)).replace(/"@onb\/react"/, JSON.stringify(REACT));

/** The names the examples may use without defining them, with their types (for tsc) and values (to run). */
const GIVEN = `
declare const API: string;
declare const BASE: string;
declare const ACCOUNT_SID: string;
declare const SECRET_KEY: string;
declare const MERCHANT: string;
declare const merchant_id: string;
declare const merchant: Awaited<ReturnType<__Onb["merchants"]["retrieve"]>>;
declare const card: { number: string; exp_month: number; exp_year: number; cvc: string };
declare const charge_id: string;
declare const orderId: string;
declare const sessionToken: string;
declare const publishableKey: string;
declare const signal: AbortSignal;
declare const onb: __Onb;
declare function navigate(to: string): void;
declare function mySecret(component: string): Promise<string>;
`;

/** The declarations of GIVEN the example does not make itself. */
const givenFor = (code: string) =>
  GIVEN.split("\n")
    .filter((line) => {
      const name = line.match(/^declare (?:const|function) (\w+)/)?.[1];
      return !name || !new RegExp(`\\b(?:const|let|var|function|class)\\s+${name}\\b`).test(code);
    })
    .join("\n");

let api: TestApi;
let given: Record<string, unknown>;
let scratch: string;

beforeAll(async () => {
  api = await startTestApi({ worker: true });
  const isv = await api.newIsv("TypeScript docs ISV");
  const merchant = await approvedMerchant(api, isv);
  const paid = await payRequest(api, isv, merchant, 5_000);
  expect(paid.status, paid.text).toBe(200);
  // An onboarding session (the SDK README's `sessionToken`): a merchant still onboarding.
  const onboarding = await api.call("POST", "/v1/merchants", { auth: isv.auth, body: { phone: "+14155550123" } });
  const link = await api.call("POST", "/v1/onboarding_links", {
    auth: isv.auth,
    body: { merchant_id: onboarding.json.id, type: "account_onboarding" },
  });
  const { Onb } = await import("../packages/node/src/index");
  const client = new Onb({ baseUrl: api.baseUrl, accountSid: isv.account_sid, secretKey: isv.secret_key });
  process.env.ONB_ACCOUNT_SID = isv.account_sid;
  process.env.ONB_SECRET_KEY = isv.secret_key;
  given = {
    API: api.baseUrl,
    BASE: api.baseUrl,
    ACCOUNT_SID: isv.account_sid,
    SECRET_KEY: isv.secret_key,
    MERCHANT: merchant.id,
    merchant_id: merchant.id,
    merchant: await client.merchants.retrieve(merchant.id),
    card: { number: "4242424242424242", exp_month: 12, exp_year: new Date().getUTCFullYear() + 2, cvc: "123" },
    charge_id: paid.json.charge.id,
    orderId: "order-1042",
    sessionToken: (await openLink(api, link.json.url)).replace(/^Bearer /, ""),
    publishableKey: merchant.publishableKey,
    signal: new AbortController().signal,
    onb: client,
    // The prose's person: the newest merchant the ISV made goes through the wizard and is approved.
    __approveNewest: async () => {
      const newest = (await api.call("GET", "/v1/merchants?limit=1", { auth: isv.auth })).json.data[0];
      await onboardMerchant(api, isv, newest.id);
    },
  };
  // In the repository, so that the examples' JSX finds React's types as an app's would.
  scratch = fs.mkdtempSync(path.join(ROOT, "tests", ".docs-example-tsc-"));
}, 90_000);
afterAll(async () => {
  await api?.close();
  if (scratch) fs.rmSync(scratch, { recursive: true, force: true });
});

describe("the TypeScript examples of the READMEs and guides", () => {
  test("there are examples to check (the runner reads the documents)", () => {
    expect(blocks.length).toBeGreaterThanOrEqual(7);
  });

  test("each compiles with the SDK's types (strict tsc)", () => {
    const files = blocks.map((b) => {
      const file = path.join(scratch, `${b.doc.replace(/[/.]/g, "_")}-example-${b.index + 1}.${b.tsx ? "tsx" : "ts"}`);
      const own = imports(b.code).map(sdkImport);
      const onbImported = own.some((l) => /\bOnb\b/.test(l));
      fs.writeFileSync(
        file,
        [
          ...own,
          `import type { Onb as __Onb } from ${JSON.stringify(SDK)};`,
          onbImported ? "" : `import { Onb, OnbInvalidRequestError } from ${JSON.stringify(SDK)};`,
          givenFor(b.code),
          "export {};",
          body(b.code),
        ].join("\n"),
      );
      return file;
    });
    const tsconfig = path.join(scratch, "tsconfig.json");
    fs.writeFileSync(
      tsconfig,
      JSON.stringify({
        compilerOptions: {
          target: "ES2022",
          lib: ["es2023", "dom", "dom.iterable"],
          jsx: "react-jsx",
          module: "esnext",
          moduleResolution: "bundler",
          strict: true,
          noEmit: true,
          skipLibCheck: true,
          noUnusedLocals: false,
          allowImportingTsExtensions: true,
          types: ["node"],
          typeRoots: [path.join(ROOT, "node_modules/@types")],
        },
        files,
      }),
    );
    let output = "";
    try {
      execFileSync(process.execPath, [path.join(ROOT, "node_modules/typescript/bin/tsc"), "-p", tsconfig], {
        encoding: "utf8",
        cwd: scratch,
      });
    } catch (error) {
      output = String((error as { stdout?: string }).stdout ?? error);
    }
    // tsc names each file as the document and the example it came from (README_md-example-1.ts).
    expect(output).toBe("");
  }, 120_000);

  // A React example is compiled only: it renders in a browser (the embed journeys render the components).
  for (const block of blocks.filter((b) => !b.tsx && !b.code.includes(".listen(")))
    test(`${block.doc}, TypeScript example ${block.index + 1} runs`, async () => {
      const code = body(block.code)
        .replace(SANDBOX_ADDRESS, JSON.stringify(api.baseUrl))
        .replace(PERSON_STEP, (line) => `${line}\nawait __approveNewest();`);
      const names = Object.keys(given);
      const file = path.join(
        ROOT,
        "tests",
        `.docs-example-${block.doc.replace(/[/.]/g, "_")}-${block.index + 1}.tmp.ts`,
      );
      fs.writeFileSync(
        file,
        [
          ...imports(block.code).map(sdkImport),
          `import { Onb as __Onb, OnbInvalidRequestError as __OnbInvalidRequestError } from ${JSON.stringify(SDK)};`,
          "export default async function (__given: Record<string, any>) {",
          `  const { ${names.join(", ")} } = __given;`,
          "  const Onb = __Onb, OnbInvalidRequestError = __OnbInvalidRequestError;",
          "  {",
          code,
          "  }",
          "}",
        ].join("\n"),
      );
      try {
        const run = (await import(/* @vite-ignore */ file)) as {
          default: (g: Record<string, unknown>) => Promise<void>;
        };
        await run.default(given);
      } finally {
        fs.rmSync(file, { force: true });
      }
    }, 60_000);
});
