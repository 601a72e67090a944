import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";

import { build } from "esbuild";

// The operator CLI the journeys run to make their ISVs: cli/index.ts compiled once per run into one
// module (and the chunks it loads on demand) that plain node starts, instead of tsx compiling and
// resolving its modules at each of the fifty-odd calls of a pass (measured here: 0.3 s a call
// instead of 0.9-1.5 s, during which the calling worker waits). The same source: tests/cli.test.ts
// runs the CLI itself through tsx.
export const cliBundleDir = path.resolve("node_modules/.cache/onb-e2e-cli");
export const cliBundle = path.join(cliBundleDir, "index.mjs");

export async function buildCliBundle() {
  fs.rmSync(cliBundleDir, { recursive: true, force: true });
  const migrate = path.resolve("lib/db/migrate.ts");
  const result = await build({
    entryPoints: ["cli/index.ts"],
    bundle: true,
    platform: "node",
    format: "esm",
    splitting: true,
    target: "node20",
    // The project's own modules in the bundle; node_modules loaded from where they are.
    packages: "external",
    outdir: cliBundleDir,
    outExtension: { ".js": ".mjs" },
    // The migrations are found beside lib/db/migrate.ts (its import.meta.url), not beside the bundle.
    define: { "import.meta.url": JSON.stringify(pathToFileURL(migrate).href) },
    metafile: true,
    logLevel: "warning",
  });
  // That URL is right for migrate.ts alone: any other module of the bundle reading import.meta
  // would be misled, so the build refuses it.
  const readers = Object.keys(result.metafile.inputs).filter(
    (input) =>
      !input.startsWith("node_modules/") &&
      path.resolve(input) !== migrate &&
      fs.readFileSync(input, "utf8").includes("import.meta"),
  );
  if (readers.length) throw new Error(`the journeys' CLI bundle cannot give import.meta to ${readers.join(", ")}`);
}
