import { eq, sql } from "drizzle-orm";
import { jsonb, pgTable, text, timestamp } from "drizzle-orm/pg-core";
import { afterAll, beforeAll, expect, test } from "vitest";

import { openDatabase, rowsOf } from "@/lib/db/client";
import { compiledWrite } from "@/lib/db/prepared";
import type { DatabaseHandle } from "@/lib/db/types";
import { env } from "@/lib/env";

// lib/db/prepared.ts compiledWrite: an insert or update built once per set of columns, run as a
// named statement with each call's own values, on both databases (one connection: a temporary table).

const things = pgTable("compiled_things", {
  id: text("id").primaryKey(),
  data: jsonb("data").$type<unknown>(),
  at: timestamp("at", { withTimezone: true, mode: "date" }),
  note: text("note").notNull().default("none"),
});
const insertThing = compiledWrite("compiled_thing_insert", (db, set) =>
  db
    .insert(things)
    .values(set as unknown as typeof things.$inferInsert)
    .returning(),
);
const updateThing = compiledWrite("compiled_thing_update", (db, set) =>
  db
    .update(things)
    .set(set)
    .where(eq(things.id, sql.placeholder("id")))
    .returning(),
);

let handle: DatabaseHandle;
beforeAll(async () => {
  handle = await openDatabase({ databaseUrl: env.DATABASE_URL, dataDir: env.DATA_DIR, poolSize: 1 });
  await handle.db.execute(
    sql`create temporary table compiled_things (id text primary key, data jsonb, at timestamptz, note text not null default 'none')`,
  );
});
afterAll(() => handle.close());

const raw = async (id: string) =>
  rowsOf<{ data_is_null: boolean; at_is_null: boolean; note: string }>(
    await handle.db.execute(
      sql`select data is null as data_is_null, at is null as at_is_null, note from compiled_things where id = ${id}`,
    ),
  )[0];

test("each call writes its own values; null is SQL NULL (not JSON null); a column left out keeps its default", async () => {
  const at = new Date("2026-12-01T10:00:00.000Z");
  const [first] = await insertThing(handle.db, { id: "a", data: { n: 1, list: [1, 2] }, at, note: "first" });
  const [second] = await insertThing(handle.db, { id: "b", data: null, at: null, note: "second" });
  expect(first).toEqual({ id: "a", data: { n: 1, list: [1, 2] }, at, note: "first" });
  expect(second).toEqual({ id: "b", data: null, at: null, note: "second" });
  expect(await raw("b")).toEqual({ data_is_null: true, at_is_null: true, note: "second" });
  // Another shape (no note, an undefined at): its own statement, the defaults.
  const [third] = await insertThing(handle.db, { id: "c", data: [3], at: undefined });
  expect(third).toEqual({ id: "c", data: [3], at: null, note: "none" });
  // The first shape again: still each call's values.
  const [fourth] = await insertThing(handle.db, { id: "d", data: "text", at, note: "fourth" });
  expect(fourth).toEqual({ id: "d", data: "text", at, note: "fourth" });
  // An SQL value would be frozen into the statement: refused, nothing written.
  await expect(insertThing(handle.db, { id: "e", data: null, at: null, note: sql`'frozen'` })).rejects.toThrow(
    /note is SQL/,
  );
  expect(await raw("e")).toBeUndefined();
});

test("an update writes the row its where names, with the call's values, in a transaction too", async () => {
  await insertThing(handle.db, { id: "u1", data: 1, at: null, note: "one" });
  await insertThing(handle.db, { id: "u2", data: 2, at: null, note: "two" });
  const later = new Date("2026-12-02T00:00:00.000Z");
  expect(await updateThing(handle.db, { note: "changed", at: later }, { id: "u1" })).toEqual([
    { id: "u1", data: 1, at: later, note: "changed" },
  ]);
  await handle.db.transaction(async (tx) => {
    expect(await updateThing(tx, { note: "again", at: null }, { id: "u2" })).toEqual([
      { id: "u2", data: 2, at: null, note: "again" },
    ]);
  });
  expect(await updateThing(handle.db, { note: "nobody" }, { id: "missing" })).toEqual([]);
  expect((await raw("u1"))!.note).toBe("changed");
});
