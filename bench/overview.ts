import fs from "node:fs";

import { sql } from "drizzle-orm";

import { openDatabase } from "../lib/db/client";
import { createIsv } from "../lib/domain/accounts/create-isv";
import { dashboardOverview } from "../lib/domain/dashboard/overview";
import { benchDataDir } from "./harness";
import { scaled } from "./short";

// The ISV dashboard's overview (issue 50): the server time of its figures for one ISV with MERCHANTS
// merchants and CHARGES charges spread over the last year (goal p95 < 300 ms at 10,000 and 1,000,000
// on PostgreSQL). The rows are written by SQL in bulk (the payments' own path would take an hour),
// shaped as the product writes them; the figures' queries are the page's own function.

export type OverviewBench = {
  kind: string;
  merchants: number;
  charges: number;
  loadSeconds: number;
  p50Ms: number;
  p95Ms: number;
  runs: number;
};

const percentile = (values: number[], p: number) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * p))]!;

export async function benchOverview(kind: "pglite" | "postgres", databaseUrl: string | undefined) {
  const merchantCount = Number(process.env.BENCH_OVERVIEW_MERCHANTS ?? scaled(10_000, 500));
  // PGlite serves one process: a tenth of PostgreSQL's rows (its figures say how many).
  const chargeCount = Number(
    process.env.BENCH_OVERVIEW_CHARGES ?? scaled(kind === "postgres" ? 1_000_000 : 100_000, 10_000),
  );
  const runs = Number(process.env.BENCH_OVERVIEW_RUNS ?? scaled(40, 10));
  const dataDir = await benchDataDir("onb-bench-overview-", databaseUrl);
  const handle = await openDatabase({ databaseUrl, dataDir, poolSize: 10 });
  try {
    const db = handle.db;
    const isv = await createIsv(db, {
      name: "Overview bench",
      email: `overview-${Date.now()}@example.test`,
      password: "bench-password-1",
      live: false,
    });
    const id = isv.account_id;
    const loadStarted = performance.now();
    // Merchants made over the last year; 8 in 10 approved two hours after, 1 in 10 waiting on a document.
    await db.execute(sql`
      insert into merchants (id, isv_account_id, phone, lead_onboarding_status, application, default_capabilities,
        payment, requirements, created_at, updated_at, submitted_at, approved_at)
      select 'mer_ov' || ${id} || '_' || i, ${id}, '+14155550123',
        case when i % 10 < 8 then 'APPROVED' when i % 10 = 8 then 'IN_PROGRESS' else 'NOT_STARTED' end,
        jsonb_build_object('legal_business_name', 'Bench shop ' || i), '{"types": [], "options": {}}'::jsonb,
        jsonb_build_object('tokenizer_publishable_key', 'pk_test_ov' || i, 'tokenizer_active', i % 10 < 8, 'terminal_id', null),
        case when i % 10 = 8 then '{"currently_due": ["owner_one.document"], "errors": []}'::jsonb end,
        now() - (i % 365) * interval '1 day', now(),
        case when i % 10 < 9 then now() - (i % 365) * interval '1 day' + interval '1 hour' end,
        case when i % 10 < 8 then now() - (i % 365) * interval '1 day' + interval '2 hours' end
      from generate_series(1, ${merchantCount}) as i`);
    // Charges in batches (each one statement), spread over the year and the merchants.
    const batch = 100_000;
    for (let from = 1; from <= chargeCount; from += batch) {
      const to = Math.min(chargeCount, from + batch - 1);
      await db.execute(sql`
        insert into payment_requests (id, isv_account_id, merchant_id, payment_type, status, amount, tax, tip, expires_at, created_at)
        select 'pr_ov' || ${id} || '_' || i, ${id}, 'mer_ov' || ${id} || '_' || (1 + i % ${merchantCount}),
          'SCAN_TO_PAY', 'PAID', 1000 + i % 9000, 0, 0, now(), now() - (i % 365) * interval '1 day'
        from generate_series(${from}::int, ${to}::int) as i`);
      await db.execute(sql`
        insert into charges (id, isv_account_id, merchant_id, payment_request_id, payment_type, status,
          requested_amount, amount_authorized, amount_captured, tip, tax, card_entry_method, receipt_number,
          created_at)
        select 'ch_ov' || ${id} || '_' || i, ${id}, 'mer_ov' || ${id} || '_' || (1 + i % ${merchantCount}),
          'pr_ov' || ${id} || '_' || i, 'SCAN_TO_PAY', case when i % 50 = 0 then 'FAILED' else 'SETTLED' end,
          1000 + i % 9000, 1000 + i % 9000, case when i % 50 = 0 then 0 else 1000 + i % 9000 end, 0, 0,
          'MANUAL', 'r' || i, now() - (i % 365) * interval '1 day' - (i % 86400) * interval '1 second'
        from generate_series(${from}::int, ${to}::int) as i`);
      // Each paid charge's ledger posting and its two entries, as lib/ledger/payment-movements.ts
      // writes them (the overview's volume is read from the ledger).
      await db.execute(sql`
        insert into ledger_postings (id, isv_account_id, merchant_id, type, source_id, amount, fee, net,
          description, available_on, created_at)
        select 'txn_ov' || ${id} || '_' || i, ${id}, 'mer_ov' || ${id} || '_' || (1 + i % ${merchantCount}),
          'charge', 'ch_ov' || ${id} || '_' || i, 1000 + i % 9000, 0, 1000 + i % 9000, 'Bench payment',
          to_char(now(), 'YYYY-MM-DD'), now() - (i % 365) * interval '1 day' - (i % 86400) * interval '1 second'
        from generate_series(${from}::int, ${to}::int) as i where i % 50 <> 0`);
      await db.execute(sql`
        insert into ledger_entries (posting_id, account, owner_id, amount)
        select 'txn_ov' || ${id} || '_' || i, side.account,
          case when side.account = 'pending' then 'mer_ov' || ${id} || '_' || (1 + i % ${merchantCount}) end,
          case when side.account = 'pending' then 1000 + i % 9000 else -(1000 + i % 9000) end
        from generate_series(${from}::int, ${to}::int) as i, (values ('pending'), ('card_clearing')) as side(account)
        where i % 50 <> 0`);
    }
    await db.execute(sql`analyze`);
    const loadSeconds = (performance.now() - loadStarted) / 1000;

    // The page's figures, as many times as asked (the first warms the plans, not counted).
    await dashboardOverview(db, id);
    const times: number[] = [];
    let checked = false;
    for (let i = 0; i < runs; i++) {
      const started = performance.now();
      const overview = await dashboardOverview(db, id);
      times.push(performance.now() - started);
      if (!checked) {
        checked = true;
        if (overview.month.payments === 0 || overview.attention.waiting.count === 0)
          throw new Error("the overview bench's figures are empty: its rows were not read");
      }
    }
    return {
      kind,
      merchants: merchantCount,
      charges: chargeCount,
      loadSeconds,
      p50Ms: percentile(times, 0.5),
      p95Ms: percentile(times, 0.95),
      runs,
    } satisfies OverviewBench;
  } finally {
    await handle.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

export function printOverview(results: OverviewBench[]) {
  console.log(
    "\nThe ISV dashboard's overview: its figures' server time for one ISV (merchants and charges over a year; goal p95 < 300 ms at 10,000 and 1,000,000 on PostgreSQL)",
  );
  console.log(
    `${"database".padEnd(12)} ${"merchants".padStart(9)} ${"charges".padStart(9)} ${"load s".padStart(7)} ${"p50 ms".padStart(7)} ${"p95 ms".padStart(7)} ${"runs".padStart(5)}`,
  );
  for (const r of results)
    console.log(
      `${r.kind.padEnd(12)} ${String(r.merchants).padStart(9)} ${String(r.charges).padStart(9)} ${r.loadSeconds.toFixed(1).padStart(7)} ${r.p50Ms.toFixed(1).padStart(7)} ${r.p95Ms.toFixed(1).padStart(7)} ${String(r.runs).padStart(5)}`,
    );
}
