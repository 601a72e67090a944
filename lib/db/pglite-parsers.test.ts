import { PGlite } from "@electric-sql/pglite";
import { sql } from "drizzle-orm";
import { pgTable, text, timestamp } from "drizzle-orm/pg-core";
import { drizzle } from "drizzle-orm/pglite";
import { afterAll, beforeAll, describe, expect, test, vi } from "vitest";

import { parsersOnce } from "./pglite-parsers";

const things = pgTable("things", {
  id: text("id").primaryKey(),
  at: timestamp("at", { withTimezone: true }).notNull(),
});

describe("PGlite's parsers, set once", () => {
  let client: PGlite;
  beforeAll(async () => {
    client = await PGlite.create();
    await client.exec("set timezone = 'UTC'; create table things (id text primary key, at timestamptz not null)");
  });
  afterAll(() => client.close());

  test("drizzle reads the same values, and PGlite is asked without per-query parsers, in a transaction too", async () => {
    const query = vi.spyOn(client, "query");
    // What each transaction's own handle is asked.
    const inTransaction: unknown[][] = [];
    const transaction = client.transaction.bind(client);
    vi.spyOn(client, "transaction").mockImplementation((fn) =>
      transaction((tx) => {
        const txQuery = tx.query.bind(tx);
        tx.query = ((...args: Parameters<typeof txQuery>) => {
          inTransaction.push(args);
          return txQuery(...args);
        }) as typeof tx.query;
        return fn(tx);
      }),
    );
    const db = drizzle(parsersOnce(client));
    const at = new Date("2026-12-04T10:11:12.345Z");
    await db.insert(things).values({ id: "a", at });
    expect(await db.select().from(things)).toEqual([{ id: "a", at }]);
    await db.transaction(async (tx) => {
      await tx.insert(things).values({ id: "b", at });
      expect(
        await tx
          .select()
          .from(things)
          .where(sql`${things.id} = 'b'`),
      ).toEqual([{ id: "b", at }]);
    });
    const outside = query.mock.calls.filter((call) => typeof call[0] === "string" && call[0].includes("things"));
    expect(outside.length).toBeGreaterThan(0);
    expect(inTransaction.length).toBe(2);
    for (const call of [...outside, ...inTransaction])
      expect((call[2] as { parsers?: unknown } | undefined)?.parsers).toBeUndefined();
    // Raw queries on the instance read a timestamp as text, as drizzle asked.
    const raw = await client.query<{ at: unknown }>("select at from things where id = 'a'");
    expect(typeof raw.rows[0]?.at).toBe("string");
  });
});
