import fs from "node:fs";
import path from "node:path";

import { openDatabase } from "@/lib/db/client";

import { scratchBase } from "./helpers/scratch";

// Once per run, on PGlite: one data directory migrated to the current schema. Each test file's own
// DATA_DIR starts from a copy of its database (tests/setup-env.ts) instead of creating a cluster and
// running every migration again (about 10 s a file on a 2-core machine; the copy takes well under
// one). The copy is the same database a fresh DATA_DIR would migrate to: the schema, no rows.
export default async function setup() {
  if (process.env.DATABASE_URL) return;
  const dir = fs.mkdtempSync(path.join(scratchBase(), "onb-template-"));
  const handle = await openDatabase({ dataDir: dir, poolSize: 1 });
  await handle.close();
  process.env.PGLITE_TEMPLATE = path.join(dir, "pgdata");
  return () => fs.rmSync(dir, { recursive: true, force: true });
}
