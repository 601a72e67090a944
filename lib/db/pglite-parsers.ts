import { type PGlite, types } from "@electric-sql/pglite";

/**
 * The types drizzle's PGlite driver asks to be left as text (dates, times, intervals, numeric and
 * their arrays: its columns parse them themselves), as drizzle-orm/pglite/session.js lists them.
 */
const TEXT_TYPES = [types.TIMESTAMP, types.TIMESTAMPTZ, types.INTERVAL, types.DATE, 1231, 1115, 1185, 1187, 1182];
const asText = (value: string) => value;

type Queryable = {
  query: (text: string, params?: unknown[], options?: { parsers?: unknown }) => Promise<unknown>;
  transaction?: (fn: (tx: Queryable) => Promise<unknown>) => Promise<unknown>;
};

/**
 * Drizzle passes those parsers with every query, and PGlite copies its whole map of parsers (every
 * type it knows) to merge them, each time: a seventh of a GET's CPU on the embedded database. They
 * are set once on the instance instead, and drizzle's client (this proxy, its transactions too)
 * drops the per-query copy. Raw queries on the instance read those types as text as well.
 */
export function parsersOnce(client: PGlite): PGlite {
  client.parsers = { ...client.parsers, ...Object.fromEntries(TEXT_TYPES.map((type) => [type, asText])) };
  return withoutQueryParsers(client as unknown as Queryable) as unknown as PGlite;
}

function withoutQueryParsers<T extends Queryable>(target: T): T {
  const query = (text: string, params?: unknown[], options?: { parsers?: unknown }) =>
    target.query(text, params, options?.parsers ? { ...options, parsers: undefined } : options);
  const transaction = target.transaction?.bind(target);
  const inTransaction =
    transaction && ((fn: (tx: Queryable) => Promise<unknown>) => transaction((tx) => fn(withoutQueryParsers(tx))));
  return new Proxy(target, {
    get(object, property) {
      if (property === "query") return query;
      if (property === "transaction" && inTransaction) return inTransaction;
      const value: unknown = Reflect.get(object, property, object);
      return typeof value === "function" ? (value as (...args: unknown[]) => unknown).bind(object) : value;
    },
  });
}
