import type { PGlite } from "@electric-sql/pglite";
import type { drizzle as drizzlePg } from "drizzle-orm/node-postgres";
import type { Pool } from "pg";

import type * as schema from "./schema";

// The database handle types: what domain functions take (`db` first, STYLE.md habit 3).
export type Db = ReturnType<typeof drizzlePg<typeof schema>>;
// A transaction handle exposes the same query API; domain functions accept either.
export type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];
export type DbOrTx = Db | Tx;

export interface DatabaseHandle {
  db: Db;
  kind: "pglite" | "postgres";
  /** Raw SQL through the same driver, for benchmarks and health checks. */
  query: (text: string, params?: unknown[]) => Promise<{ rows: Record<string, unknown>[] }>;
  close: () => Promise<void>;
  /** The pg pool (PostgreSQL only), for work that needs one session, like advisory locks. */
  pool?: Pool;
  /** The embedded database (PGlite only), for its own migrator. */
  pglite?: PGlite;
  /**
   * Calls `onPayload` for each NOTIFY on `channel` (sent with pg_notify, delivered at commit): from
   * every process on PostgreSQL, from this one on PGlite. Resolves to the unsubscribe function.
   */
  listen: (channel: string, onPayload: (payload: string) => void) => Promise<() => Promise<void>>;
}
