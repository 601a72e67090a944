import * as drizzle from "drizzle-orm";
import { fillPlaceholders, is, Param, Placeholder, SQL, sql } from "drizzle-orm";
import type { PgDialect } from "drizzle-orm/pg-core";

import { type DbOrTx } from "./types";

/**
 * Hot-path queries are built once and prepared (named statements on PostgreSQL): drizzle's query
 * building costs about 0.3 ms of CPU per call, more than the query itself on a fast database.
 */
export function preparedPerDb<T>(build: (db: DbOrTx) => T): (db: DbOrTx) => T {
  const cache = new WeakMap<object, T>();
  return (db) => {
    let prepared = cache.get(db);
    if (!prepared) {
      prepared = build(db);
      cache.set(db, prepared);
    }
    return prepared;
  };
}

type Query = { sql: string; params: unknown[] };
/** drizzle's own (not in its declarations): a selection's fields in the order its rows carry them. */
type Fields = unknown[];
const { orderSelectedFields } = drizzle as unknown as { orderSelectedFields(fields: Record<string, unknown>): Fields };

type Session = {
  prepareQuery(
    query: Query,
    fields: Fields | undefined,
    name: string | undefined,
    arrayMode: boolean,
  ): { execute(): Promise<unknown>; joinsNotNullableMap?: Record<string, boolean> };
};

/**
 * A statement built once and run many times: drizzle renders its text the first time (building a
 * large statement costs more CPU than running it), each call fills its `sql.placeholder(name)`s
 * with the call's values (given as the driver takes them: JSON as text, dates as Date) and runs it,
 * as a named prepared statement on PostgreSQL, in the caller's transaction when `db` is one.
 */
export function compiledStatement(name: string, build: () => SQL) {
  let query: Query | null = null;
  return (db: DbOrTx, values: Record<string, unknown>): Promise<unknown> => {
    const { dialect, session } = db as unknown as { dialect: PgDialect; session: Session };
    query ??= dialect.sqlToQuery(build());
    return session
      .prepareQuery({ sql: query.sql, params: fillPlaceholders(query.params, values) }, undefined, name, false)
      .execute();
  };
}

/** What compiledSelect reads of drizzle's select builder (the fields it maps rows to, its joins). */
type SelectBuilder = {
  getSQL(): SQL;
  config: { fields: Record<string, unknown> };
  joinsNotNullableMap: Record<string, boolean>;
};

/**
 * A select built once and run many times, as compiledStatement runs a statement: `build` makes it
 * with `sql.placeholder(name)`s (the first call's `db` builds it; each call runs in its own `db`,
 * its transaction when it is one), and its rows come back as the builder's own would (a join's
 * tables as nested objects, a left join's missing row as null). PostgreSQL plans a named statement
 * once per connection instead of at every call (a join of five tables: about 0.5 ms a call).
 */
export function compiledSelect<B extends PromiseLike<unknown>>(name: string, build: (db: DbOrTx) => B) {
  let compiled: { query: Query; fields: Fields; joins: Record<string, boolean> } | null = null;
  const compile = (db: DbOrTx) => {
    if (!compiled) {
      const { dialect } = db as unknown as { dialect: PgDialect };
      const builder = build(db) as unknown as SelectBuilder;
      compiled = {
        query: dialect.sqlToQuery(builder.getSQL()),
        fields: orderSelectedFields(builder.config.fields),
        joins: builder.joinsNotNullableMap,
      };
    }
    return compiled;
  };
  const run = async (db: DbOrTx, values: Record<string, unknown>): Promise<Awaited<B>> => {
    const { session } = db as unknown as { session: Session };
    const { query, fields, joins } = compile(db);
    const prepared = session.prepareQuery(
      { sql: query.sql, params: fillPlaceholders(query.params, values) },
      fields,
      name,
      true,
    );
    prepared.joinsNotNullableMap = joins;
    return (await prepared.execute()) as Awaited<B>;
  };
  /** Its text and parameters with `values` (the plan tests explain its generic plan: tests/query-plans.test.ts). */
  const text = (db: DbOrTx, values: Record<string, unknown>) => {
    const { query } = compile(db);
    return { sql: query.sql, params: fillPlaceholders(query.params, values) };
  };
  return Object.assign(run, { text });
}

/** What compiledWrite reads of drizzle's insert and update builders (the fields `returning` maps rows to). */
type WriteBuilder = { getSQL(): SQL; config: { returning?: Fields } };

/**
 * An insert or an update with `returning`, declared once (at module level: its `build` must capture
 * nothing of a call) and built once per set of columns a call writes, its shape: `build(db, set)`
 * gets a placeholder for each of the call's `set` columns (undefined ones left out, as drizzle leaves
 * them to their default) and names its other placeholders itself, filled from the call's `where`. Run
 * as compiledSelect runs a select (a named statement per shape; rows as the builder's own).
 */
export function compiledWrite<Row>(
  name: string,
  build: (db: DbOrTx, set: Record<string, Placeholder>) => PromiseLike<Row[]>,
) {
  const shapes = new Map<string, { query: Query; fields: Fields | undefined; name: string }>();
  return async (db: DbOrTx, set: Record<string, unknown>, where: Record<string, unknown> = {}): Promise<Row[]> => {
    const { dialect, session } = db as unknown as { dialect: PgDialect; session: Session };
    const keys = Object.keys(set).filter((key) => set[key] !== undefined);
    // An SQL value would be frozen into the statement its first call built.
    for (const key of keys) if (set[key] instanceof SQL) throw new Error(`${name}: ${key} is SQL, not a value`);
    const shape = keys.join(",");
    let compiled = shapes.get(shape);
    if (!compiled) {
      const placeholders = Object.fromEntries(keys.map((key) => [key, sql.placeholder(`set.${key}`)]));
      const builder = build(db, placeholders) as unknown as WriteBuilder;
      compiled = {
        query: dialect.sqlToQuery(builder.getSQL()),
        fields: builder.config.returning,
        name: `${name}_${shapes.size}`,
      };
      shapes.set(shape, compiled);
    }
    const values: Record<string, unknown> = { ...where };
    for (const key of keys) values[`set.${key}`] = set[key];
    const prepared = session.prepareQuery(
      { sql: compiled.query.sql, params: fillColumns(compiled.query.params, values) },
      compiled.fields,
      compiled.name,
      true,
    );
    return (await prepared.execute()) as Row[];
  };
}

/**
 * fillPlaceholders, with a column's null as SQL NULL: drizzle's own fill hands every value to the
 * column's encoder (null would be JSON `null` in a jsonb column, and an error in a timestamp one).
 */
function fillColumns(params: unknown[], values: Record<string, unknown>) {
  return params.map((param) => {
    if (is(param, Param) && is(param.value, Placeholder) && values[param.value.name] === null) return null;
    return fillPlaceholders([param], values)[0];
  });
}
