import fs from "node:fs";

import { eq, inArray } from "drizzle-orm";

import { atTime } from "../lib/clock-scope";
import { openDatabase } from "../lib/db/client";
import { merchants, payouts } from "../lib/db/schema";
import { createIsv } from "../lib/domain/accounts/create-isv";
import { getAccount } from "../lib/domain/accounts/get-account";
import { createMerchant } from "../lib/domain/merchants/create-merchant";
import { advancePayout } from "../lib/domain/payouts/advance-payout";
import { payScheduled } from "../lib/domain/payouts/pay-scheduled";
import { setPayoutSettings } from "../lib/domain/payouts/settings";
import { settleAll } from "../lib/domain/settlements/run-settlement";
import { isBusinessDay } from "../lib/payouts/business-days";
import example from "../lib/schemas/examples/merchant-application.json" with { type: "json" };
import { defaultPayoutSchedule } from "../lib/schemas/payout-schedule";
import { benchDataDir, insertPaidCharges } from "./harness";

// The daily settlement plus payouts (issues 31 and 73): MERCHANTS approved merchants with CHARGES
// card charges each, on mixed payout schedules (a quarter each daily, weekly, monthly and manual),
// settled in one run (each merchant's settlement, its charge.settled events, and the daily ones'
// payouts), then every payout sent (pending → in_transit, as the worker does, 8 at a time), then the
// payout run of a day the weekly and monthly schedules are due (their waiting money paid out, the
// manual ones left). Timed on each database, with the process's peak memory during the run (PGlite
// runs inside this process).

export type PayoutsBench = {
  kind: string;
  merchants: number;
  charges: number;
  settleSeconds: number;
  payouts: number;
  sendSeconds: number;
  /** The payout run on a day the weekly and monthly schedules are due: seconds, and the payouts it made. */
  runSeconds: number;
  runPayouts: number;
  peakRssMb: number;
};

const SCHEDULES = ["daily", "weekly", "monthly", "manual"] as const;

/** The first day after `from` (a business day, the 28th or earlier, not today's weekday) both a weekly and a monthly anchor can name. */
function dueDay(from: Date) {
  for (let n = 1; ; n++) {
    const day = new Date(Date.UTC(from.getUTCFullYear(), from.getUTCMonth(), from.getUTCDate() + n));
    if (isBusinessDay(day) && day.getUTCDate() <= 28 && day.getUTCDay() !== from.getUTCDay()) return day;
  }
}

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
    const day = dueDay(new Date());
    const weekday = (["monday", "tuesday", "wednesday", "thursday", "friday"] as const)[day.getUTCDay() - 1]!;
    for (const [i, merchantId] of ids.entries()) {
      const interval = SCHEDULES[i % SCHEDULES.length]!;
      if (interval !== "daily")
        await setPayoutSettings(
          db,
          { id: merchantId, recipient: "merchant" },
          {
            schedule: {
              ...defaultPayoutSchedule,
              interval,
              weekly_anchor: interval === "weekly" ? weekday : null,
              monthly_anchor: interval === "monthly" ? day.getUTCDate() : null,
            },
          },
        );
    }
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
    const daily = ids.filter((_, i) => i % SCHEDULES.length === 0).length;
    if (pending.length !== daily || made.some((s) => s.net !== perMerchant * 9680))
      throw new Error("the settlements or their payouts do not add up");

    const sendStarted = performance.now();
    let next = 0;
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        while (next < pending.length) await advancePayout(db, pending[next++]!.id);
      }),
    );
    const sendSeconds = (performance.now() - sendStarted) / 1000;
    const runStarted = performance.now();
    const ran = await atTime(day, () => payScheduled(db, day, { isvAccountId: isv.account_id }));
    const runSeconds = (performance.now() - runStarted) / 1000;
    const due = ids.filter((_, i) => i % SCHEDULES.length === 1 || i % SCHEDULES.length === 2).length;
    if (ran.length !== due || ran.some((p) => p.amount !== perMerchant * 9680))
      throw new Error(`the payout run made ${ran.length} payouts for ${due} merchants due`);
    clearInterval(sampler);
    return {
      kind,
      merchants: merchantCount,
      charges: merchantCount * perMerchant,
      settleSeconds,
      payouts: pending.length,
      sendSeconds,
      runSeconds,
      runPayouts: ran.length,
      peakRssMb: Math.round(peak / 1024 / 1024),
    };
  } finally {
    await handle.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

export function printPayouts(results: PayoutsBench[]) {
  console.log(
    "\nSettlement plus payouts, mixed schedules (a quarter each daily, weekly, monthly, manual): every merchant's day settled in one run (events and the daily ones' payouts included), every payout sent (8 at a time), then the payout run of a day the weekly and monthly ones are due; goals: settlement under 60 s, the payout run under 10 s, on PostgreSQL",
  );
  console.log(
    `${"database".padEnd(12)} ${"merchants".padStart(10)} ${"charges".padStart(9)} ${"settle s".padStart(9)} ${"payouts".padStart(8)} ${"send s".padStart(7)} ${"run s".padStart(6)} ${"run payouts".padStart(12)} ${"peak RSS MB".padStart(12)}`,
  );
  for (const r of results)
    console.log(
      `${r.kind.padEnd(12)} ${String(r.merchants).padStart(10)} ${String(r.charges).padStart(9)} ${r.settleSeconds.toFixed(1).padStart(9)} ${String(r.payouts).padStart(8)} ${r.sendSeconds.toFixed(1).padStart(7)} ${r.runSeconds.toFixed(1).padStart(6)} ${String(r.runPayouts).padStart(12)} ${String(r.peakRssMb).padStart(12)}`,
    );
}
