import fs from "node:fs";
import path from "node:path";

import { openDatabase } from "@/lib/db/client";

import { buildBundles, bundleDir } from "../scripts/cli-bundle";
import { scratchBase } from "./helpers/scratch";

// Once per run, on PGlite: one data directory migrated to the current schema. Each test file's own
// DATA_DIR starts from a copy of its database (tests/setup-env.ts) instead of creating a cluster and
// running every migration again (about 10 s a file on a 2-core machine; the copy takes well under
// one). The copy is the same database a fresh DATA_DIR would migrate to: the schema, no rows.
//
// Once per run, on either database: the server, the worker and the CLI that the tests start as their
// own processes, compiled (scripts/cli-bundle.ts; tests/helpers/server-process.ts starts them).
export default async function setup() {
  // A directory of the run's own: two runs at once in one checkout (a file run while the suite runs)
  // must not rebuild each other's.
  fs.mkdirSync(bundleDir("test"), { recursive: true });
  const bundles = fs.mkdtempSync(path.join(bundleDir("test"), "run-"));
  await buildBundles("test", ["server.ts", "lib/workers/worker-main.ts", "cli/index.ts"], bundles);
  process.env.TEST_BUNDLES_DIR = bundles;
  // Where the first API file keeps the OpenAPI document its server published, for the response
  // checks of the files after it (tests/helpers/openapi-check.ts).
  process.env.TEST_OPENAPI_DOC = path.join(bundles, "openapi.json");
  const removeBundles = () => fs.rmSync(bundles, { recursive: true, force: true });
  if (process.env.DATABASE_URL) return removeBundles;
  const dir = fs.mkdtempSync(path.join(scratchBase(), "onb-template-"));
  const handle = await openDatabase({ dataDir: dir, poolSize: 1 });
  await handle.close();
  process.env.PGLITE_TEMPLATE = path.join(dir, "pgdata");
  return () => {
    fs.rmSync(dir, { recursive: true, force: true });
    removeBundles();
  };
}
