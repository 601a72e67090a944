// The SDKs' generated files from this checkout: the TypeScript SDK's (packages/node/src/generated)
// from the OpenAPI document, built in this process (no server or database), and the React package's
// element types (packages/react/src/generated/embed-types.ts) from the loader's lib/embed/v1.d.ts.
// `npm run sdk:generate` writes them; `npm run sdk:check` fails, naming the files, when they differ.
import fs from "node:fs";
import path from "node:path";

import type { DatabaseHandle } from "@/lib/db/types";
import { generatedFiles, generateSdk } from "@/packages/node/codegen/generate";
import { embedTypesFile, embedTypesOf } from "@/packages/react/codegen/embed-types";

process.env.LOG_LEVEL ??= "silent";
const { createApi } = await import("@/lib/api/app");
// The document route reads no database: the handle is never touched.
const app = createApi({ handle: {} as DatabaseHandle });
const res = await app.request("/v1/openapi.json");
if (res.status !== 200) throw new Error(`GET /v1/openapi.json: ${res.status}`);
const node = await generateSdk(await res.json());

const root = path.join(import.meta.dirname, "..");
const wanted: Record<string, string> = {
  ...Object.fromEntries(generatedFiles.map((file) => [`packages/node/${file}`, node[file]])),
  [`packages/react/${embedTypesFile}`]: embedTypesOf(fs.readFileSync(path.join(root, "lib/embed/v1.d.ts"), "utf8")),
};

const check = process.argv.includes("--check");
const drifted: string[] = [];
for (const [file, content] of Object.entries(wanted)) {
  const target = path.join(root, file);
  const current = fs.existsSync(target) ? fs.readFileSync(target, "utf8") : undefined;
  if (current === content) continue;
  if (check) drifted.push(file);
  else {
    fs.mkdirSync(path.dirname(target), { recursive: true });
    fs.writeFileSync(target, content);
    process.stdout.write(`wrote ${file}\n`);
  }
}
if (drifted.length) {
  console.error(
    `The SDKs are not generated from this checkout's API: ${drifted.join(", ")} differ.\nRun npm run sdk:generate and commit the result.`,
  );
  process.exit(1);
}
if (check) process.stdout.write("The SDKs match the OpenAPI document and the loader's types.\n");
