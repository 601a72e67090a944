import { type SQL, sql } from "drizzle-orm";
import { afterAll, beforeAll, expect, test } from "vitest";

import { openDatabase, rowsOf } from "@/lib/db/client";
import type { DatabaseHandle, Tx } from "@/lib/db/types";
import { lockForPaidInvoice, lockForStep } from "@/lib/domain/subscriptions/step-lock";
import { env } from "@/lib/env";
import { chargeFactsOf } from "@/lib/ledger/reads";
import { keptOf, recoveredOfOne } from "@/lib/ledger/recovered";

// The reads made for one object on every payment and every renewal find their rows through indexes,
// whatever the size of the ledger: with sequential scans made as costly as PostgreSQL allows, a
// query that has no other way (an `or` across two sources, as the charge's facts once had) still
// reads the whole table, and its plan says so.

let handle: DatabaseHandle;
beforeAll(async () => {
  handle = await openDatabase({ databaseUrl: env.DATABASE_URL, dataDir: env.DATA_DIR, poolSize: 1 });
});
afterAll(() => handle.close());

type PlanNode = {
  "Node Type": string;
  "Relation Name"?: string;
  "Index Name"?: string;
  "Index Cond"?: string;
  Plans?: PlanNode[];
};
/** The tables (or indexes) a plan reads whole: a sequential scan, or an index read end to end (no condition). */
const scanned = (node: PlanNode): string[] => [
  ...(node["Node Type"] === "Seq Scan" ? [node["Relation Name"] ?? "?"] : []),
  ...(/Index/.test(node["Node Type"]) && !node["Index Cond"] ? [node["Index Name"] ?? "?"] : []),
  ...(node.Plans ?? []).flatMap(scanned),
];

async function tablesReadWhole(query: SQL, within?: Tx) {
  const read = async (tx: Tx) => {
    await tx.execute(sql`set local enable_seqscan = off`);
    const [row] = rowsOf<{ "QUERY PLAN": [{ Plan: PlanNode }] | string }>(
      await tx.execute(sql`explain (format json) ${query}`),
    );
    const plan = row?.["QUERY PLAN"];
    const parsed = typeof plan === "string" ? (JSON.parse(plan) as [{ Plan: PlanNode }]) : plan;
    const root = parsed?.[0]?.Plan;
    if (!root) throw new Error("explain gave no plan");
    return scanned(root).sort();
  };
  return within ? read(within) : handle.db.transaction(read);
}

test("a charge's ledger facts read no table whole", async () => {
  expect(await tablesReadWhole(chargeFactsOf(sql`${"ch_plan"}`))).toEqual([]);
  expect(await tablesReadWhole(chargeFactsOf(sql.join([sql`${"ch_a"}`, sql`${"ch_b"}`], sql`, `)))).toEqual([]);
});

test("what a subscription's dunning recovered reads no table whole", async () => {
  expect(await tablesReadWhole(keptOf(sql`pr.subscription_id = ${"sub_plan"}`))).toEqual([]);
});

test("what it recovered, read as a column of the subscription's lock (every renewal, every paid invoice), reads no table whole", async () => {
  expect(
    await tablesReadWhole(
      sql`select s.id, ${recoveredOfOne("sub_plan")} from subscriptions s where s.id = ${"sub_plan"} for update`,
    ),
  ).toEqual([]);
});

/**
 * What a compiled statement's generic plan reads whole: the plan a named statement may keep for
 * every later call (on a server without autovacuum, as first made), whatever values come.
 */
async function genericPlanReadsWhole(query: { sql: string; params: unknown[] }) {
  const literal = (value: unknown) => `'${String(value).replace(/'/g, "''")}'`;
  return handle.db.transaction(async (tx) => {
    await tx.execute(sql`set local plan_cache_mode = force_generic_plan`);
    await tx.execute(sql.raw(`prepare generic_probe as ${query.sql}`));
    try {
      return await tablesReadWhole(sql.raw(`execute generic_probe(${query.params.map(literal).join(", ")})`), tx);
    } finally {
      await tx.execute(sql`deallocate generic_probe`);
    }
  });
}

test("a renewal's compiled reads (its lock with what it recovered; its paid invoice's lock) read no table whole in their generic plans", async () => {
  expect(await genericPlanReadsWhole(lockForStep.text(handle.db, { id: "sub_plan" }))).toEqual([]);
  expect(await genericPlanReadsWhole(lockForPaidInvoice.text(handle.db, { id: "sub_plan" }))).toEqual([]);
});
