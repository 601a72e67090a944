import { and, count, eq, sql } from "drizzle-orm";

import { openDatabase } from "../lib/db/client";
import { merchants, paymentRequests, testClocks } from "../lib/db/schema";
import { createIsv } from "../lib/domain/accounts/create-isv";
import { getAccount } from "../lib/domain/accounts/get-account";
import { createMerchant } from "../lib/domain/merchants/create-merchant";
import { runTestClockAdvance } from "../lib/domain/test-clocks/test-clocks";
import example from "../lib/schemas/examples/merchant-application.json" with { type: "json" };
import { benchDataDir } from "./harness";
import { scaled } from "./short";

// A test clock advanced one month over many subscriptions (issue 74, docs/reference.md section 21;
// goal < 60 s on PostgreSQL for 10,000): SUBSCRIPTIONS monthly subscriptions on one clock, each its
// own customer and saved card (made by SQL), their next renewal due a day after the clock's time.
// Timed: the advance job, which renews each one (its invoice, the sandbox charge, the ledger's
// postings, the events) at its own time.

export type SubscriptionsBench = { kind: string; subscriptions: number; seconds: number; paid: number };

export async function benchSubscriptions(
  kind: "pglite" | "postgres",
  databaseUrl: string | undefined,
  subscriptionCount = Number(process.env.BENCH_SUBSCRIPTIONS ?? scaled(10_000, 100)),
): Promise<SubscriptionsBench> {
  const dataDir = await benchDataDir("onb-bench-subscriptions-", databaseUrl);
  const handle = await openDatabase({ databaseUrl, dataDir, poolSize: 10 });
  try {
    const db = handle.db;
    const isv = await createIsv(db, {
      name: "Subscriptions bench",
      email: `subs-${Date.now()}@example.test`,
      password: "bench-password-1",
      live: false,
    });
    const account = await getAccount(db, isv.account_id);
    const { row: merchant } = await createMerchant(db, account, { phone: "+14155550123", merchant: example } as never);
    await db.update(merchants).set({ status: "APPROVED" }).where(eq(merchants.id, merchant.id));
    const start = new Date(Math.floor(Date.now() / 1000) * 1000);
    const due = new Date(start.getTime() + 24 * 3600 * 1000);
    const clockId = `clock_bench_${Date.now()}`;
    await db
      .insert(testClocks)
      .values({ id: clockId, isvAccountId: isv.account_id, frozenTime: start, status: "ready" });
    await db.execute(sql`
      insert into customers (id, isv_account_id, merchant_id, name, email, test_clock_id, created_at)
      select 'cus_bench_' || g, ${isv.account_id}, ${merchant.id}, 'Member ' || g, 'member' || g || '@example.test', ${clockId}, ${start}
      from generate_series(1, ${subscriptionCount}) g`);
    await db.execute(sql`
      insert into payment_methods (id, isv_account_id, merchant_id, customer_id, type, brand, last4, exp_month, exp_year, funding,
        fingerprint, vault, consent, created_at, updated_at)
      select 'pm_bench_' || g, ${isv.account_id}, ${merchant.id}, 'cus_bench_' || g, 'card', 'visa', '4242', 12, 2040, 'credit',
        'fp_bench_' || g, jsonb_build_object('processor', 'sandbox', 'ref', 'sbx_card_bench_' || g, 'scenario', 'approve'),
        jsonb_build_object('text', 'Save this card', 'locale', 'en', 'accepted_at', ${start.toISOString()}::text, 'ip_address', null, 'source', 'api'),
        ${start}, ${start}
      from generate_series(1, ${subscriptionCount}) g`);
    // Each in a one-day trial: its first paid period begins a day after the clock's time.
    await db.execute(sql`
      insert into subscriptions (id, isv_account_id, merchant_id, customer_id, payment_method_id, test_clock_id, status, items, amount,
        interval, interval_count, billing_cycle_anchor, period_index, current_period_start, current_period_end, trial_end,
        next_action_at, created_at, updated_at)
      select 'sub_bench_' || g, ${isv.account_id}, ${merchant.id}, 'cus_bench_' || g, 'pm_bench_' || g, ${clockId}, 'trialing',
        '[{"name":"Membership","unit_price":4900,"quantity":1}]'::jsonb, 4900, 'month', 1, ${due}, 0, ${start}, ${due}, ${due},
        ${due}, ${start}, ${start}
      from generate_series(1, ${subscriptionCount}) g`);
    // The tables filled above, analyzed for their plans. Not the others: analyzed empty, they would
    // stay empty to the planner while the advance fills them (this machine's PostgreSQL runs no
    // autovacuum), and every posting's foreign-key check, planned once per connection, would read
    // the whole ledger by the end (10,000 renewals: about 12 ms a posting instead of well under one).
    if (kind === "postgres") await handle.query("analyze customers, payment_methods, subscriptions");
    // One month on: every subscription's first period is charged once, at its own time.
    const target = new Date(start.getTime() + 31 * 24 * 3600 * 1000);
    await db.update(testClocks).set({ status: "advancing", advancingTo: target }).where(eq(testClocks.id, clockId));
    const started = performance.now();
    await runTestClockAdvance(db, { test_clock_id: clockId });
    const seconds = (performance.now() - started) / 1000;
    const [paid] = await db
      .select({ n: count() })
      .from(paymentRequests)
      .where(and(eq(paymentRequests.isvAccountId, isv.account_id), eq(paymentRequests.status, "PAID")));
    const n = paid?.n ?? 0;
    if (n !== subscriptionCount) throw new Error(`${n} periods paid, expected ${subscriptionCount}`);
    return { kind, subscriptions: subscriptionCount, seconds, paid: n };
  } finally {
    await handle.close();
  }
}

export function printSubscriptions(results: SubscriptionsBench[]) {
  console.log(
    "\nA test clock advanced one month: monthly subscriptions each renewed and charged once (goal < 60 s on PostgreSQL for 10,000)",
  );
  console.log(
    `${"database".padEnd(12)} ${"subscriptions".padStart(13)} ${"paid".padStart(7)} ${"seconds".padStart(8)} ${"per second".padStart(11)}`,
  );
  for (const r of results)
    console.log(
      `${r.kind.padEnd(12)} ${String(r.subscriptions).padStart(13)} ${String(r.paid).padStart(7)} ${r.seconds.toFixed(1).padStart(8)} ${(r.subscriptions / r.seconds).toFixed(0).padStart(11)}`,
    );
}
