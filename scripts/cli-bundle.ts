import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";

import { build } from "esbuild";

// The operator CLI that the journeys and the bench run to make their ISVs: cli/index.ts compiled once
// per run into one module (and the chunks it loads on demand) that plain node starts, instead of tsx
// compiling and resolving its modules at each call (fifty-odd a journeys' pass, one a bench server;
// measured here: 0.3 s a call instead of 0.9-1.5 s, during which the caller waits). The same
// source: tests/cli.test.ts runs the CLI itself through tsx.

/** Where a run's compiled CLI is (`purpose`: who uses it, so that two kinds of run never share one). */
export const cliBundlePath = (purpose: "e2e" | "bench") =>
  path.resolve(`node_modules/.cache/onb-cli-${purpose}/index.mjs`);

/** Compiles the CLI; answers the module to start with `node <path> <command...>`. */
export async function buildCliBundle(purpose: "e2e" | "bench") {
  const entry = cliBundlePath(purpose);
  const cliBundleDir = path.dirname(entry);
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
  if (readers.length) throw new Error(`the compiled CLI cannot give import.meta to ${readers.join(", ")}`);
  return entry;
}
