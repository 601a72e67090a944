import { sql } from "drizzle-orm";

import { openDatabase } from "../lib/db/client";
import { createIsv } from "../lib/domain/accounts/create-isv";
import { getAccount } from "../lib/domain/accounts/get-account";
import { createMerchant } from "../lib/domain/merchants/create-merchant";
import { runRiskChecks } from "../lib/domain/risk/risk-alerts";
import { nextMidnightUtc } from "../lib/payouts/business-days";
import example from "../lib/schemas/examples/merchant-application.json" with { type: "json" };
import { benchDataDir } from "./harness";
import { scaled } from "./short";

// The daily risk job (issue 73, docs/reference.md section 20; goal < 60 s on PostgreSQL for 10,000
// merchants): MERCHANTS approved merchants (copies of one, made by SQL), each with one card charge a
// day for the last 30 days; one in a hundred declared $1 a month (its volume rule breaks, so that
// many alerts are raised with their events). Timed: one run of the job over them all.

export type RiskBench = { kind: string; merchants: number; charges: number; seconds: number; alerts: number };

export async function benchRisk(
  kind: "pglite" | "postgres",
  databaseUrl: string | undefined,
  merchantCount = Number(process.env.BENCH_RISK_MERCHANTS ?? scaled(10_000, 200)),
): Promise<RiskBench> {
  const dataDir = await benchDataDir("onb-bench-risk-", databaseUrl);
  const handle = await openDatabase({ databaseUrl, dataDir, poolSize: 10 });
  try {
    const db = handle.db;
    const isv = await createIsv(db, {
      name: "Risk bench",
      email: `risk-${Date.now()}@example.test`,
      password: "bench-password-1",
      live: false,
    });
    const account = await getAccount(db, isv.account_id);
    const { row } = await createMerchant(db, account, { phone: "+14155550123", merchant: example } as never);
    // Copies of the one merchant, approved; every hundredth declares $1 a month.
    await db.execute(sql`
      insert into merchants (id, isv_account_id, phone, lead_onboarding_status, application, default_capabilities, payment, created_at, updated_at)
      select 'mer_bench_' || g, isv_account_id, phone, 'APPROVED',
        case when g % 100 = 0 then jsonb_set(application, '{current_sales,average_monthly_in_credit_card}', '"1"') else application end,
        default_capabilities, payment || jsonb_build_object('tokenizer_publishable_key', 'pk_bench_' || g, 'terminal_id', 'tml_bench_' || g),
        created_at, updated_at
      from merchants, generate_series(1, ${merchantCount}) g where id = ${row.id}`);
    const end = nextMidnightUtc(new Date());
    // One paid card charge a day for 30 days each (a payment request for each: one charge per request).
    await db.execute(sql`
      insert into payment_requests (id, isv_account_id, merchant_id, payment_type, status, amount, tax, tip, charge_id, expires_at, paid_at, created_at)
      select 'pr_bench_' || g || '_' || d, ${isv.account_id}, 'mer_bench_' || g, 'SCAN_TO_PAY', 'PAID', 5000, 0, 0,
        'ch_bench_' || g || '_' || d, ${end}, ${end}, ${end}::timestamptz - make_interval(days => d) + interval '1 hour'
      from generate_series(1, ${merchantCount}) g, generate_series(1, 30) d`);
    await db.execute(sql`
      insert into charges (id, isv_account_id, merchant_id, payment_request_id, payment_type, status, requested_amount,
        amount_authorized, amount_captured, tip, tax, card_entry_method, receipt_number, created_at)
      select 'ch_bench_' || g || '_' || d, ${isv.account_id}, 'mer_bench_' || g, 'pr_bench_' || g || '_' || d, 'SCAN_TO_PAY', 'SETTLED',
        5000, 5000, 5000, 0, 0, 'MANUAL', 'R' || g || '-' || d, ${end}::timestamptz - make_interval(days => d) + interval '1 hour'
      from generate_series(1, ${merchantCount}) g, generate_series(1, 30) d`);
    await db.execute(sql`analyze`);
    const started = performance.now();
    const alerts = await runRiskChecks(db, end);
    const seconds = (performance.now() - started) / 1000;
    return { kind, merchants: merchantCount, charges: merchantCount * 30, seconds, alerts: alerts.length };
  } finally {
    await handle.close();
  }
}

export function printRisk(results: RiskBench[]) {
  console.log(
    "\nThe daily risk job: approved merchants with one charge a day for 30 days, 1 % breaking a rule (goal < 60 s on PostgreSQL for 10,000)",
  );
  console.log(
    `${"database".padEnd(12)} ${"merchants".padStart(9)} ${"charges".padStart(9)} ${"alerts".padStart(7)} ${"seconds".padStart(8)}`,
  );
  for (const r of results)
    console.log(
      `${r.kind.padEnd(12)} ${String(r.merchants).padStart(9)} ${String(r.charges).padStart(9)} ${String(r.alerts).padStart(7)} ${r.seconds.toFixed(1).padStart(8)}`,
    );
}
