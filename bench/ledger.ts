import fs from "node:fs";

import { eq } from "drizzle-orm";

import { openDatabase } from "../lib/db/client";
import { merchants } from "../lib/db/schema";
import { createIsv } from "../lib/domain/accounts/create-isv";
import { getAccount } from "../lib/domain/accounts/get-account";
import { getBalance } from "../lib/domain/balance/get-balance";
import { createMerchant } from "../lib/domain/merchants/create-merchant";
import { checkpointBalances } from "../lib/ledger/balances";
import { checkLedger } from "../lib/ledger/check";
import example from "../lib/schemas/examples/merchant-application.json" with { type: "json" };
import { benchDataDir, insertPaidCharges } from "./harness";
import { scaled } from "./short";

// The ledger (issue 49): a merchant with BALANCE_TRANSACTIONS balance transactions (card charges, in
// the ledger as postCharge writes them), its balance read 300 times (getBalance, in process: the
// query GET /v1/balance runs), then the daily ledger_check over every entry (more charges on a
// second merchant bring the ledger to ENTRIES entries: three per charge).

export type LedgerBench = {
  kind: string;
  transactions: number;
  entries: number;
  balanceP50Ms: number;
  balanceP99Ms: number;
  checkSeconds: number;
  violations: number;
};

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]!;

export async function benchLedger(kind: "pglite" | "postgres", databaseUrl: string | undefined): Promise<LedgerBench> {
  const transactions = Number(process.env.BENCH_BALANCE_TRANSACTIONS ?? scaled(100_000, 2_000));
  const entries = Number(process.env.BENCH_LEDGER_ENTRIES ?? scaled(kind === "postgres" ? 1_000_000 : 300_000, 9_000));
  const dataDir = await benchDataDir("onb-bench-ledger-", databaseUrl);
  const handle = await openDatabase({ databaseUrl, dataDir, poolSize: 4 });
  try {
    const db = handle.db;
    const isv = await createIsv(db, {
      name: "Ledger bench",
      email: `ledger-${Date.now()}@example.test`,
      password: "bench-password-1",
      live: false,
    });
    const account = await getAccount(db, isv.account_id);
    const made = [];
    for (let i = 0; i < 2; i++) {
      const { row } = await createMerchant(db, account, { phone: "+14155550123", merchant: example } as never);
      await db.update(merchants).set({ status: "APPROVED" }).where(eq(merchants.id, row.id));
      made.push(row.id);
    }
    const [measured, other] = made as [string, string];
    const at = new Date(Date.now() - 60_000);
    await insertPaidCharges(db, { isvAccountId: isv.account_id, merchantId: measured, count: transactions, at });
    const rest = Math.max(0, Math.ceil(entries / 3) - transactions);
    if (rest) await insertPaidCharges(db, { isvAccountId: isv.account_id, merchantId: other, count: rest, at });
    // As the nightly ledger check leaves it: the balances checkpointed (every entry here is a minute
    // old, so no margin), then a day's new payments after the checkpoint.
    await checkpointBalances(db, { marginMs: 0 });
    await insertPaidCharges(db, { isvAccountId: isv.account_id, merchantId: measured, count: 500, at: new Date() });
    if (kind === "postgres") await handle.query("analyze");
    const scope = { isvAccountId: isv.account_id };
    const times: number[] = [];
    for (let i = 0; i < 300; i++) {
      const started = performance.now();
      const { balance } = await getBalance(db, scope, measured);
      times.push(performance.now() - started);
      if (balance.pending !== (transactions + 500) * 9_680)
        throw new Error(`balance ${balance.pending}, expected ${(transactions + 500) * 9_680}`);
    }
    times.sort((a, b) => a - b);
    const started = performance.now();
    const violations = await checkLedger(db);
    const checkSeconds = (performance.now() - started) / 1000;
    return {
      kind,
      transactions,
      entries: (transactions + rest) * 3,
      balanceP50Ms: Number(percentile(times, 0.5).toFixed(2)),
      balanceP99Ms: Number(percentile(times, 0.99).toFixed(2)),
      checkSeconds: Number(checkSeconds.toFixed(2)),
      violations: violations.length,
    };
  } finally {
    await handle.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

export function printLedger(results: LedgerBench[]) {
  console.log(
    "\nLedger: a merchant's balance (getBalance, the query of GET /v1/balance; goal p99 < 20 ms at 100,000 transactions) and the daily ledger_check over every entry (goal < 30 s at 1,000,000 on PostgreSQL)",
  );
  console.log(
    `${"database".padEnd(12)} ${"txns".padStart(8)} ${"p50 ms".padStart(8)} ${"p99 ms".padStart(8)} ${"entries".padStart(10)} ${"check s".padStart(8)} ${"broken".padStart(7)}`,
  );
  for (const r of results)
    console.log(
      `${r.kind.padEnd(12)} ${String(r.transactions).padStart(8)} ${String(r.balanceP50Ms).padStart(8)} ${String(r.balanceP99Ms).padStart(8)} ${String(r.entries).padStart(10)} ${String(r.checkSeconds).padStart(8)} ${String(r.violations).padStart(7)}`,
    );
}
