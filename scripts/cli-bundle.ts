import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";

import { build, type Plugin } from "esbuild";

// The programs the journeys, the bench and the tests start many times, each compiled once per run
// into one module (and the chunks it loads on demand) that plain node starts, instead of tsx
// compiling and resolving some 450 modules through its loader at every start:
// - the operator CLI that makes their ISVs (fifty-odd calls a journeys' pass, one a bench server;
//   measured here: 0.3 s a call instead of 0.9-1.5 s, during which the caller waits);
// - the server (server.ts) and the worker (lib/workers/worker-main.ts) that the bench's sections and
//   the tests' own processes start (tests/helpers/server-process.ts; measured here, a server on a
//   migrated database answering: 5.1-5.4 s with tsx, 3.4-3.5 s compiled, about twenty starts a
//   bench run and a dozen a test pass).
// The same source: tests/cli.test.ts runs the CLI itself through tsx, and `npm start` the server.

/** Who a compiled program is for: two kinds of run never share one (they may run at once). */
export type BundlePurpose = "e2e" | "bench" | "test";
export type BundleEntry = "cli/index.ts" | "server.ts" | "lib/workers/worker-main.ts";

/** Where the programs of a purpose are compiled unless said otherwise. */
export const bundleDir = (purpose: BundlePurpose) => path.resolve(`node_modules/.cache/onb-bundle-${purpose}`);
/** Where a run's compiled program is (in `dir`, the purpose's own by default): start it with `node <path> ...`. */
export const bundlePath = (purpose: BundlePurpose, entry: BundleEntry, dir = bundleDir(purpose)) =>
  path.join(dir, `${path.basename(entry, ".ts")}.mjs`);
/** Where a run's compiled CLI is (`purpose`: who uses it). */
export const cliBundlePath = (purpose: BundlePurpose) => bundlePath(purpose, "cli/index.ts");

/**
 * Each of the project's modules keeps its own `import.meta` in the bundle: its url, dirname and
 * filename are written into it as the source file's (the migrations beside lib/db/migrate.ts, the
 * embed's types beside its route, `next({ dir })` at the project's root), not the bundle's.
 */
const ownImportMeta: Plugin = {
  name: "own-import-meta",
  setup(b) {
    b.onLoad({ filter: /\.tsx?$/ }, async (args) => {
      if (args.path.includes(`${path.sep}node_modules${path.sep}`)) return undefined;
      const text = await fs.promises.readFile(args.path, "utf8");
      const contents = text
        .replaceAll("import.meta.url", JSON.stringify(pathToFileURL(args.path).href))
        .replaceAll("import.meta.dirname", JSON.stringify(path.dirname(args.path)))
        .replaceAll("import.meta.filename", JSON.stringify(args.path));
      // Anything else of import.meta (an env, a resolve) would be the bundle's: refused.
      if (contents.includes("import.meta"))
        throw new Error(`${args.path}: only import.meta.url, dirname and filename can be compiled`);
      return { contents, loader: args.path.endsWith(".tsx") ? "tsx" : "ts" };
    });
  },
};

/**
 * Compiles the given programs into `outdir` (made anew: once per run; by default the purpose's own,
 * under node_modules/.cache so that the packages resolve as from the project); answers their paths.
 */
export async function buildBundles(purpose: BundlePurpose, entries: BundleEntry[], outdir = bundleDir(purpose)) {
  fs.rmSync(outdir, { recursive: true, force: true });
  await build({
    entryPoints: entries,
    bundle: true,
    platform: "node",
    format: "esm",
    splitting: true,
    target: "node20",
    jsx: "automatic",
    // The project's own modules in the bundle; node_modules loaded from where they are (the bundle
    // lives under node_modules/.cache, so they resolve as from the project).
    packages: "external",
    outdir,
    outbase: ".",
    entryNames: "[name]",
    outExtension: { ".js": ".mjs" },
    plugins: [ownImportMeta],
    logLevel: "warning",
  });
  return entries.map((entry) => bundlePath(purpose, entry, outdir));
}

/** Compiles the CLI; answers the module to start with `node <path> <command...>`. */
export async function buildCliBundle(purpose: BundlePurpose) {
  await buildBundles(purpose, ["cli/index.ts"]);
  return cliBundlePath(purpose);
}
