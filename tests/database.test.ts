import { sql } from "drizzle-orm";
import { afterAll, beforeAll, expect, test } from "vitest";

import { openDatabase } from "@/lib/db/client";
import { type DatabaseHandle } from "@/lib/db/types";
import { env } from "@/lib/env";

// CI runs the suite twice; this proves which database each pass really ran on. `.ci/run` sets
// EXPECT_DATABASE for each pass.
let handle: DatabaseHandle;
beforeAll(async () => {
  handle = await openDatabase({ databaseUrl: env.DATABASE_URL, dataDir: env.DATA_DIR, poolSize: 1 });
});
afterAll(() => handle.close());

test("the suite runs on the database it claims to", async () => {
  const expected = process.env.EXPECT_DATABASE ?? (process.env.DATABASE_URL ? "postgres" : "pglite");
  expect(handle.kind).toBe(expected);
  const result = await handle.db.execute(sql`select version() as version`);
  const rows = ((result as { rows?: unknown[] }).rows ?? result) as { version: string }[];
  expect(rows[0]!.version).toMatch(/^PostgreSQL \d+/);
  // PGlite answers with its own build of PostgreSQL; the server pass must not be talking to it.
  if (expected === "postgres") expect(process.env.DATABASE_URL).toMatch(/^postgres(ql)?:\/\//);
  else expect(process.env.DATABASE_URL ?? "").toBe("");
});
