import fs from "node:fs";
import path from "node:path";

import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";

import { changeBankAccount } from "@/lib/domain/home/settings";
import { checkLedger } from "@/lib/ledger/check";
import { SANDBOX_DISPUTED_CARD } from "@/lib/processors/sandbox";

import { startTestApi, type TestApi } from "../helpers/api";
import { freshHomeSession } from "../helpers/fixtures";
import { approvedMerchant, payRequest } from "../helpers/payments";
import { until } from "../helpers/until";

// Migration 0030 carries a database made before the ledger into it (docs/reference.md section 18):
// a month of activity is made here (cards, a refund, an ACH debit returned, a dispute won, payouts
// paid and one refused then paid again, a negative settlement carried into the next), its ledger
// is read, then this ISV's postings are removed (as a database made before 0029 has none) and the
// migration's SQL is run again: the balances, every balance transaction (type, source, amounts,
// settlement, payout) and every invariant are the same. Run a second time, it adds nothing.

let api: TestApi;
let isv: Awaited<ReturnType<TestApi["newIsv"]>>;

beforeAll(async () => {
  api = await startTestApi({ worker: true });
  isv = await api.newIsv("Backfill ISV");
  await api.call("PATCH", "/v1/account", { auth: isv.auth, body: { settings: { new_bank_account_hold_days: 0 } } });
}, 120_000);
afterAll(() => api.close());

const post = (path: string, body?: unknown) => api.call("POST", path, { auth: isv.auth, body });
const get = (path: string) => api.call("GET", path, { auth: isv.auth });

async function pay(
  merchant: Awaited<ReturnType<typeof approvedMerchant>>,
  amount: number,
  source: { card?: string; account?: string } = {},
) {
  const res = await payRequest(api, isv, merchant, amount, source);
  expect(res.json.charge.status).toBe("AUTHORIZED");
  return res.json.charge.id as string;
}

/** What the ledger says of a merchant: its balance and its balance transactions, without their ids. */
async function ledgerOf(merchantId: string) {
  const balance = (await get(`/v1/balance?merchant_id=${merchantId}`)).json;
  const lines = (await get(`/v1/balance_transactions?merchant_id=${merchantId}&limit=100`)).json.data as Record<
    string,
    unknown
  >[];
  const key = (t: Record<string, unknown>) =>
    [t.type, t.source, t.amount, t.fee, t.net, t.status, t.settlement_id, t.payout_id].join("|");
  return { balance, lines: lines.map(key).sort() };
}

/** The migrations that write the ledger of what was made before it: 0030 (money), 0040 (costs). */
const backfillStatements = () =>
  ["0030_ledger_backfill.sql", "0040_cost_postings.sql"].flatMap((file) =>
    fs
      .readFileSync(path.join(process.cwd(), "lib/db/migrations", file), "utf8")
      .split("--> statement-breakpoint")
      .map((s) => s.trim())
      .filter(Boolean),
  );

async function runBackfill() {
  await api.db.transaction(async (tx) => {
    for (const statement of backfillStatements()) await tx.execute(sql.raw(statement));
  });
}

describe("migration 0030: the ledger of a database made before it", () => {
  test("gives the same balances, balance transactions, settlements and payouts; run again, adds nothing", async () => {
    const shop = await approvedMerchant(api, isv);
    const closed = await approvedMerchant(api, isv, (application) => {
      application.bank_account.account_number = "000555555550";
      application.bank_account.account_number_confirm = "000555555550";
    });
    // Night 1: cards, a refund, a debit the bank returns, a card its customer disputes.
    const c1 = await pay(shop, 10_000);
    await pay(shop, 5_000, { card: SANDBOX_DISPUTED_CARD });
    await post("/v1/refunds", { charge_id: c1, amount: 2_500 });
    await pay(shop, 4_000, { account: "000222222227" });
    await pay(closed, 7_000);
    const settle = async (merchantId: string) =>
      (await post("/v1/test_helpers/settlement/run", { merchant_id: merchantId })).json.data[0];
    await settle(shop.id);
    await settle(closed.id);
    const dispute = await until(
      async () => (await get(`/v1/disputes?merchant_id=${shop.id}`)).json.data[0],
      (d) => d !== undefined,
      20_000,
      "the dispute",
    );
    await until(
      async () => (await get(`/v1/charges?merchant_id=${shop.id}&limit=100`)).json.data,
      (charges: { status: string }[]) => charges.some((c) => c.status === "RETURNED"),
      20_000,
      "the return",
    );
    await post(`/v1/disputes/${dispute.id}`, { evidence: { uncategorized_text: "winning_evidence" } });
    await post(`/v1/disputes/${dispute.id}/submit`);
    await until(
      async () => (await get(`/v1/disputes/${dispute.id}`)).json.status,
      (s) => s === "won",
      20_000,
      "the dispute won",
    );
    // The payouts: the shop's paid, the closed account's refused.
    for (const merchantId of [shop.id, closed.id]) {
      const [payout] = (await get(`/v1/payouts?merchant_id=${merchantId}`)).json.data;
      await until(
        async () => (await get(`/v1/payouts/${payout.id}`)).json.status,
        (s) => s === "in_transit",
        20_000,
        "the payout sent",
      );
      await post(`/v1/test_helpers/payouts/${payout.id}/advance`);
    }
    // The refused payout paid again to a new bank account.
    const [refused] = (await get(`/v1/payouts?merchant_id=${closed.id}`)).json.data;
    await until(
      async () => (await get(`/v1/payouts/${refused.id}`)).json.status,
      (s) => s === "failed",
      20_000,
      "the refusal",
    );
    await changeBankAccount(
      api.db,
      closed.id,
      {
        bank_name: "Second Bank",
        routing_number: "021000021",
        account_holder_name: "Ana Ruiz",
        account_number: "000987654321",
        account_number_confirm: "000987654321",
      },
      freshHomeSession(),
    );
    await until(
      async () => (await get(`/v1/payouts?merchant_id=${closed.id}`)).json.data,
      (payouts: { replaces: string | null }[]) => payouts.some((p) => p.replaces === refused.id),
      20_000,
      "the replacement",
    );
    // Night 2: the return and the dispute taken (negative: carried), the won dispute's amount back.
    await settle(shop.id);
    await pay(shop, 20_000);
    await settle(shop.id);
    // Every payout sent (the worker does it at once): the migration posts each payout as the release
    // before it did when it was made, and a payout posts only when sent now, so the two ledgers agree
    // once none waits.
    for (const merchantId of [shop.id, closed.id])
      await until(
        async () => (await get(`/v1/payouts?merchant_id=${merchantId}`)).json.data as { status: string }[],
        (payouts) => payouts.every((p) => p.status !== "pending"),
        20_000,
        "every payout sent",
      );

    const before = { shop: await ledgerOf(shop.id), closed: await ledgerOf(closed.id) };
    expect(before.shop.lines.length).toBeGreaterThan(8);
    expect(before.closed.lines.filter((l) => l.startsWith("payout_failure|"))).toHaveLength(1);
    expect(await checkLedger(api.db)).toEqual([]);

    // As a database made before the ledger: this ISV's postings gone (the triggers set aside for it),
    // then the migration's SQL, all in one transaction that locks the tables: no other test (a shared
    // PostgreSQL) ever sees the ledger without them.
    const mine = async (tx: Pick<typeof api.db, "execute">) =>
      (
        (await tx.execute(
          sql`select count(*)::int as n from ledger_postings where isv_account_id = ${isv.account_id}`,
        )) as unknown as { rows: { n: number }[] }
      ).rows[0]!.n;
    const postings = await mine(api.db);
    await api.db.transaction(async (tx) => {
      await tx.execute(sql`alter table ledger_entries disable trigger user`);
      await tx.execute(sql`alter table ledger_postings disable trigger user`);
      await tx.execute(
        sql`delete from ledger_entries where posting_id in (select id from ledger_postings where isv_account_id = ${isv.account_id})`,
      );
      await tx.execute(sql`delete from ledger_postings where isv_account_id = ${isv.account_id}`);
      await tx.execute(sql`alter table ledger_entries enable trigger user`);
      await tx.execute(sql`alter table ledger_postings enable trigger user`);
      expect(await mine(tx)).toBe(0);
      for (const statement of backfillStatements()) await tx.execute(sql.raw(statement));
    });
    expect({ shop: await ledgerOf(shop.id), closed: await ledgerOf(closed.id) }).toEqual(before);
    expect(await checkLedger(api.db)).toEqual([]);

    // Again: nothing more.
    expect(await mine(api.db)).toBe(postings);
    await runBackfill();
    expect(await mine(api.db)).toBe(postings);
    expect({ shop: await ledgerOf(shop.id), closed: await ledgerOf(closed.id) }).toEqual(before);
  }, 120_000);
});
