import fs from "node:fs";

import { eq, inArray } from "drizzle-orm";

import { openDatabase } from "../lib/db/client";
import { merchants, payouts } from "../lib/db/schema";
import { createIsv } from "../lib/domain/accounts/create-isv";
import { getAccount } from "../lib/domain/accounts/get-account";
import { createMerchant } from "../lib/domain/merchants/create-merchant";
import { advancePayout } from "../lib/domain/payouts/advance-payout";
import { settleAll } from "../lib/domain/settlements/run-settlement";
import example from "../lib/schemas/examples/merchant-application.json" with { type: "json" };
import { benchDataDir, insertPaidCharges } from "./harness";

// The daily settlement plus payouts (issue 31): MERCHANTS approved merchants with CHARGES card
// charges each, settled in one run (each merchant's settlement, its charge.settled events and its
// payout), then every payout sent (pending → in_transit, as the worker does, 8 at a time). Timed on
// each database, with the process's peak memory during the run (PGlite runs inside this process).

export type PayoutsBench = {
  kind: string;
  merchants: number;
  charges: number;
  settleSeconds: number;
  payouts: number;
  sendSeconds: number;
  peakRssMb: number;
};

export async function benchPayouts(
  kind: "pglite" | "postgres",
  databaseUrl: string | undefined,
  merchantCount = Number(process.env.BENCH_PAYOUT_MERCHANTS ?? 1000),
  perMerchant = Number(process.env.BENCH_PAYOUT_CHARGES ?? 100),
): Promise<PayoutsBench> {
  const dataDir = await benchDataDir("onb-bench-po-", databaseUrl);
  const handle = await openDatabase({ databaseUrl, dataDir, poolSize: 10 });
  try {
    const db = handle.db;
    const isv = await createIsv(db, {
      name: "Payouts bench",
      email: `po-${Date.now()}@example.test`,
      password: "bench-password-1",
      live: false,
    });
    const account = await getAccount(db, isv.account_id);
    const ids: string[] = [];
    for (let i = 0; i < merchantCount; i++) {
      const { row } = await createMerchant(db, account, { phone: "+14155550123", merchant: example } as never);
      ids.push(row.id);
    }
    // Approved, with the example's bank account (encrypted by createMerchant) and no checks pending.
    for (let i = 0; i < ids.length; i += 500)
      await db
        .update(merchants)
        .set({ status: "APPROVED" })
        .where(inArray(merchants.id, ids.slice(i, i + 500)));
    const now = new Date(Date.now() - 60_000);
    for (const merchantId of ids)
      await insertPaidCharges(db, { isvAccountId: isv.account_id, merchantId, count: perMerchant, at: now });

    // This run's peak memory, sampled (the process's own high-water mark would include earlier runs).
    let peak = process.memoryUsage().rss;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 100);
    const started = performance.now();
    const made = await settleAll(db, new Date(), { isvAccountId: isv.account_id });
    const settleSeconds = (performance.now() - started) / 1000;
    if (made.length !== merchantCount) throw new Error(`${made.length} settlements for ${merchantCount} merchants`);
    const pending = await db.select({ id: payouts.id }).from(payouts).where(eq(payouts.isvAccountId, isv.account_id));
    if (pending.length !== merchantCount || made.some((s) => s.net !== perMerchant * 9680))
      throw new Error("the settlements or their payouts do not add up");

    const sendStarted = performance.now();
    let next = 0;
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        while (next < pending.length) await advancePayout(db, pending[next++]!.id);
      }),
    );
    const sendSeconds = (performance.now() - sendStarted) / 1000;
    clearInterval(sampler);
    return {
      kind,
      merchants: merchantCount,
      charges: merchantCount * perMerchant,
      settleSeconds,
      payouts: pending.length,
      sendSeconds,
      peakRssMb: Math.round(peak / 1024 / 1024),
    };
  } finally {
    await handle.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

export function printPayouts(results: PayoutsBench[]) {
  console.log(
    "\nSettlement plus payouts: every merchant's day settled in one run (events and payout included), then every payout sent (8 at a time); goal: under 60 s on PostgreSQL",
  );
  console.log(
    `${"database".padEnd(12)} ${"merchants".padStart(10)} ${"charges".padStart(9)} ${"settle s".padStart(9)} ${"payouts".padStart(8)} ${"send s".padStart(7)} ${"peak RSS MB".padStart(12)}`,
  );
  for (const r of results)
    console.log(
      `${r.kind.padEnd(12)} ${String(r.merchants).padStart(10)} ${String(r.charges).padStart(9)} ${r.settleSeconds.toFixed(1).padStart(9)} ${String(r.payouts).padStart(8)} ${r.sendSeconds.toFixed(1).padStart(7)} ${String(r.peakRssMb).padStart(12)}`,
    );
}
