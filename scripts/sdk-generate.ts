// The TypeScript SDK's generated files (packages/node/src/generated) from this checkout's OpenAPI
// document, built in this process (no server or database): `npm run sdk:generate` writes them;
// `npm run sdk:check` fails, naming the files, when they differ from what the document makes.
import fs from "node:fs";
import path from "node:path";

import { generatedFiles, generateSdk } from "@/packages/node/codegen/generate";

process.env.LOG_LEVEL ??= "silent";
const { createApi } = await import("@/lib/api/app");
// The document route reads no database: the handle is never touched.
const app = createApi({ handle: {} as never });
const res = await app.request("/v1/openapi.json");
if (res.status !== 200) throw new Error(`GET /v1/openapi.json: ${res.status}`);
const files = await generateSdk(await res.json());

const root = path.join(import.meta.dirname, "..", "packages", "node");
const check = process.argv.includes("--check");
const drifted: string[] = [];
for (const file of generatedFiles) {
  const target = path.join(root, file);
  const current = fs.existsSync(target) ? fs.readFileSync(target, "utf8") : undefined;
  if (current === files[file]) continue;
  if (check) drifted.push(`packages/node/${file}`);
  else {
    fs.mkdirSync(path.dirname(target), { recursive: true });
    fs.writeFileSync(target, files[file]);
    process.stdout.write(`wrote packages/node/${file}\n`);
  }
}
if (drifted.length) {
  console.error(
    `The SDK is not generated from this API's OpenAPI document: ${drifted.join(", ")} differ.\nRun npm run sdk:generate and commit the result.`,
  );
  process.exit(1);
}
if (check) process.stdout.write("The SDK matches the OpenAPI document.\n");
