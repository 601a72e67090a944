import path from "node:path";
import { fileURLToPath } from "node:url";

import { must } from "../must";
import { type DatabaseHandle } from "./types";

const migrationsFolder = path.join(path.dirname(fileURLToPath(import.meta.url)), "migrations");

// Committed SQL migrations (drizzle-kit generate), applied on start and in tests. On PostgreSQL an
// advisory lock makes several instances starting together apply them once.
// `folder`: another set of migrations (a test carries a database up to an older release's first).
export async function migrateDatabase(handle: DatabaseHandle, folder = migrationsFolder) {
  if (handle.kind === "pglite") {
    const { migrate } = await import("drizzle-orm/pglite/migrator");
    const { drizzle } = await import("drizzle-orm/pglite");
    await migrate(drizzle(must(handle.pglite, "a PGlite handle's database")), { migrationsFolder: folder });
    return;
  }
  const { migrate } = await import("drizzle-orm/node-postgres/migrator");
  const { drizzle } = await import("drizzle-orm/node-postgres");
  const client = await must(handle.pool, "a PostgreSQL handle's pool").connect();
  try {
    await client.query("select pg_advisory_lock(727274)");
    try {
      await migrate(drizzle(client), { migrationsFolder: folder });
    } finally {
      await client.query("select pg_advisory_unlock(727274)");
    }
  } finally {
    client.release();
  }
}
