import path from "node:path";

import type { PGlite } from "@electric-sql/pglite";
import { drizzle as drizzlePg } from "drizzle-orm/node-postgres";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import type { Pool } from "pg";

import { acquireDataDirLock, makePrivate } from "./lock";
import { migrateDatabase } from "./migrate";
import { parsersOnce } from "./pglite-parsers";
import * as schema from "./schema";
import type { DatabaseHandle, Db } from "./types";

/** The rows of a raw `db.execute` (node-postgres answers `{ rows }`, PGlite's drizzle driver the rows). */
export const rowsOf = <T>(result: unknown): T[] => (result as { rows?: T[] }).rows ?? (result as T[]);

export interface OpenOptions {
  databaseUrl?: string;
  dataDir: string;
  poolSize?: number;
  migrate?: boolean;
}

export async function openDatabase(options: OpenOptions): Promise<DatabaseHandle> {
  const handle = options.databaseUrl
    ? await openPostgres(options.databaseUrl, options.poolSize ?? 10)
    : await openPglite(options.dataDir);
  try {
    if (options.migrate !== false) await migrateDatabase(handle);
  } catch (error) {
    await handle.close();
    throw error;
  }
  return handle;
}

async function openPostgres(url: string, poolSize: number): Promise<DatabaseHandle> {
  const pg = await import("pg");
  // BIGINT counts (lead_id) come back as numbers, not strings.
  pg.default.types.setTypeParser(20, (v: string) => Number(v));
  const pool: Pool = new pg.default.Pool({ connectionString: url, max: poolSize });
  pool.on("error", () => {
    /* an idle client lost its connection; the pool replaces it */
  });
  const db = drizzlePg(pool, { schema });
  // One listening connection per process, shared by every subscriber (a stream per open pay page).
  const subscribers = new Map<string, Set<(payload: string) => void>>();
  let listener: Promise<InstanceType<typeof pg.default.Client>> | undefined;
  let closed = false;
  let retry: ReturnType<typeof setTimeout> | undefined;
  const connectListener = () => {
    listener ??= (async () => {
      const client = new pg.default.Client({ connectionString: url });
      client.on("notification", (n) => {
        for (const fn of subscribers.get(n.channel) ?? []) fn(n.payload ?? "");
      });
      const lost = () => {
        // Lost (a restart, a network cut): connect again and LISTEN on every channel again, so
        // workers and pay pages keep being woken (they poll meanwhile).
        if (listener === connecting) listener = undefined;
        client.end().catch(() => undefined);
        if (!closed && subscribers.size > 0) retry ??= setTimeout(relisten, 1000);
      };
      client.on("error", lost);
      client.on("end", lost);
      await client.connect();
      for (const channel of subscribers.keys()) await client.query(`listen ${channel}`);
      return client;
    })().catch((error: unknown) => {
      listener = undefined;
      throw error;
    });
    const connecting = listener;
    return listener;
  };
  const relisten = () => {
    retry = undefined;
    if (closed) return;
    connectListener().catch(() => {
      if (!closed) retry ??= setTimeout(relisten, 1000);
    });
  };
  return {
    db,
    kind: "postgres",
    query: async (text, params) => pool.query(text, params as unknown[]),
    close: async () => {
      closed = true;
      clearTimeout(retry);
      const client = await listener?.catch(() => undefined);
      await client?.end().catch(() => undefined);
      await pool.end();
    },
    pool,
    listen: async (channel, onPayload) => {
      if (!/^[a-z_]+$/.test(channel)) throw new Error(`bad channel name ${channel}`);
      const client = await connectListener();
      let set = subscribers.get(channel);
      if (!set) {
        set = new Set();
        subscribers.set(channel, set);
        await client.query(`listen ${channel}`);
      }
      set.add(onPayload);
      return async () => {
        set.delete(onPayload);
      };
    },
  };
}

async function openPglite(dataDir: string): Promise<DatabaseHandle> {
  const release = dataDir === "memory://" ? () => {} : acquireDataDirLock(dataDir);
  try {
    const { PGlite } = await import("@electric-sql/pglite");
    const client: PGlite = await PGlite.create(dataDir === "memory://" ? undefined : path.join(dataDir, "pgdata"));
    await client.exec("set timezone = 'UTC'");
    const db = drizzlePglite(parsersOnce(client), { schema }) as unknown as Db;
    return {
      db,
      kind: "pglite",
      pglite: client,
      query: async (text, params) =>
        client.query(text, params as unknown[]) as Promise<{ rows: Record<string, unknown>[] }>,
      listen: async (channel, onPayload) => {
        const unlisten = await client.listen(channel, onPayload);
        return async () => unlisten();
      },
      close: async () => {
        try {
          await client.close();
          // PGlite sets some files' modes itself (0644) as it closes: private again.
          if (dataDir !== "memory://") makePrivate(dataDir);
        } finally {
          release();
        }
      },
    };
  } catch (error) {
    release();
    throw error;
  }
}

// Exactly one database per process: the API (loaded by server.ts) and Next's bundled server code
// reach the same handle through globalThis. A failed start-up clears the holder so that the next
// call can try again instead of caching the failure.
const holderKey = Symbol.for("onboarding-platform.database");
type Holder = { promise?: Promise<DatabaseHandle> };
const holder: Holder = ((globalThis as Record<symbol, unknown>)[holderKey] ??= {}) as Holder;

export function getDatabase(): Promise<DatabaseHandle> {
  if (!holder.promise) {
    holder.promise = (async () => {
      const { env } = await import("../env");
      return openDatabase({ databaseUrl: env.DATABASE_URL, dataDir: env.DATA_DIR, poolSize: env.DATABASE_POOL_SIZE });
    })();
    holder.promise.catch(() => {
      holder.promise = undefined;
    });
  }
  return holder.promise;
}

export async function closeDatabase() {
  const pending = holder.promise;
  holder.promise = undefined;
  if (pending) await (await pending).close();
}
