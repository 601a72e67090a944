import { and, desc, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";

import { ledgerBalanceCheckpoints, ledgerEntries } from "@/lib/db/schema";
import { payoutWithLines } from "@/lib/domain/balance/payout-lines";
import { balanceOf, checkpointBalances } from "@/lib/ledger/balances";
import { checkLedger } from "@/lib/ledger/check";
import { pending, platform } from "@/lib/ledger/entry-helpers";
import { post } from "@/lib/ledger/post";
import { netVolumes } from "@/lib/ledger/volume";

import { startTestApi, type TestApi } from "../helpers/api";
import { approvedMerchant, payRequest } from "../helpers/payments";

// The ledger's edges (issue 72): the check sees money that went through the wrong network's clearing
// account and a posting that does not sum to zero; a balance read through a checkpoint whose last
// entry is the merchant's own counts that entry once. Each planted wrong in a transaction rolled back
// (or on a merchant of its own), so the file's ledger stays whole.

let api: TestApi;
let isv: Awaited<ReturnType<TestApi["newIsv"]>>;
let merchant: Awaited<ReturnType<typeof approvedMerchant>>;

beforeAll(async () => {
  api = await startTestApi({ worker: true });
  isv = await api.newIsv("Edges ISV");
  merchant = await approvedMerchant(api, isv);
}, 120_000);
afterAll(() => api.close());

/** What the check finds inside a transaction that `plant` changes and that is then rolled back. */
async function foundWith(plant: (tx: Parameters<Parameters<TestApi["db"]["transaction"]>[0]>[0]) => Promise<unknown>) {
  return api.db
    .transaction(async (tx) => {
      await plant(tx);
      throw Object.assign(new Error("roll back"), { found: await checkLedger(tx, merchant.id) });
    })
    .catch((e: { found?: unknown }) => {
      if (e.found === undefined) throw e;
      return e.found;
    });
}

describe("the ledger check", () => {
  test("a bank debit's return through the card network's clearing account is named; through its own, nothing", async () => {
    const paid = await payRequest(api, isv, merchant, 4_000, { account: "000123456789" });
    const debit = { id: paid.json.charge.id as string, amount_captured: 4_000 };
    expect(await checkLedger(api.db, merchant.id)).toEqual([]);
    const returned = (account: "card_clearing" | "ach_clearing") => ({
      isvAccountId: isv.account_id,
      merchantId: merchant.id,
      type: "ach_return" as const,
      sourceId: debit.id,
      amount: -debit.amount_captured,
      description: "Returned by the bank",
      entries: [pending(merchant.id, -debit.amount_captured), platform(account, debit.amount_captured)],
    });
    let swapped = "";
    expect(
      await foundWith(async (tx) => {
        swapped = (await post(tx, returned("card_clearing")))!.id;
      }),
    ).toEqual([{ invariant: "clearing_is_the_payment_method", id: swapped, expected: 0, actual: 1 }]);
    expect(await foundWith((tx) => post(tx, returned("ach_clearing")))).toEqual([]);
    // A card payment through the bank's clearing account: named too.
    const card = (await payRequest(api, isv, merchant, 2_000)).json.charge as {
      id: string;
      amount_captured: number;
      fee: number;
    };
    let wrong = "";
    expect(
      await foundWith(async (tx) => {
        wrong = (await post(tx, {
          isvAccountId: isv.account_id,
          merchantId: merchant.id,
          type: "refund",
          sourceId: card.id,
          amount: -500,
          description: "a refund through the wrong network",
          entries: [pending(merchant.id, -500), platform("ach_clearing", 500)],
        }))!.id;
      }),
    ).toEqual([{ invariant: "clearing_is_the_payment_method", id: wrong, expected: 0, actual: 1 }]);
    expect(await checkLedger(api.db, merchant.id)).toEqual([]);
  });

  test("a posting whose entries do not sum to zero is named (written past the database's own refusal)", async () => {
    await payRequest(api, isv, merchant, 1_000);
    let postingId = "";
    const found = await foundWith(async (tx) => {
      const [last] = await tx
        .select()
        .from(ledgerEntries)
        .where(eq(ledgerEntries.ownerId, merchant.id))
        .orderBy(desc(ledgerEntries.id))
        .limit(1);
      postingId = last!.postingId;
      // The trigger refuses an unbalanced insert: switched off inside this transaction alone.
      await tx.execute(sql`alter table ledger_entries disable trigger ledger_entries_balanced`);
      await tx.insert(ledgerEntries).values({ postingId, ownerId: null, account: "processing_revenue", amount: 7 });
    });
    expect(found).toEqual([
      expect.objectContaining({ invariant: "posting_sums_to_zero", id: postingId, expected: 0, actual: 7 }),
    ]);
    expect(await checkLedger(api.db, merchant.id)).toEqual([]);
  });
});

describe("a balance read through a checkpoint", () => {
  test("a checkpoint whose last entry is the merchant's own counts that entry once", async () => {
    // The last entry written is the merchant's own `pending` (entries are written in their order).
    await post(api.db, {
      isvAccountId: isv.account_id,
      merchantId: merchant.id,
      type: "adjustment",
      sourceId: "adj_edge",
      amount: 321,
      description: "an adjustment",
      entries: [platform("processing_revenue", -321), pending(merchant.id, 321)],
    });
    const [own] = await api.db.select().from(ledgerEntries).orderBy(desc(ledgerEntries.id)).limit(1);
    expect(own).toMatchObject({ ownerId: merchant.id, account: "pending", amount: 321 });
    const before = await balanceOf(api.db, merchant.id);
    expect(await checkpointBalances(api.db, { marginMs: 0, ownerId: merchant.id })).toBeGreaterThan(0);
    const [checkpoint] = await api.db
      .select()
      .from(ledgerBalanceCheckpoints)
      .where(and(eq(ledgerBalanceCheckpoints.ownerId, merchant.id), eq(ledgerBalanceCheckpoints.account, "pending")));
    // The boundary is that entry: counted by the checkpoint, not again after it.
    expect(checkpoint!.throughEntryId).toBe(own!.id);
    expect(await balanceOf(api.db, merchant.id)).toEqual(before);
    const sums = await api.db
      .select({ account: ledgerEntries.account, amount: sql<string>`sum(${ledgerEntries.amount})` })
      .from(ledgerEntries)
      .where(eq(ledgerEntries.ownerId, merchant.id))
      .groupBy(ledgerEntries.account);
    expect(before.pending).toBe(Number(sums.find((s) => s.account === "pending")?.amount ?? 0));
    expect(await checkLedger(api.db, merchant.id)).toEqual([]);
  });
});

describe("a period's net volume and payment count", () => {
  test("a bank's return of a payment made before the period lowers its volume, not its payment count", async () => {
    const shop = await approvedMerchant(api, isv);
    const since = new Date("2026-10-01T00:00:00.000Z");
    const at = (iso: string) => new Date(iso);
    const move = (
      type: "charge" | "ach_return" | "ach_return_reversal",
      sourceId: string,
      amount: number,
      when: Date,
    ) =>
      post(api.db, {
        isvAccountId: isv.account_id,
        merchantId: shop.id,
        type,
        sourceId,
        amount,
        description: type,
        createdAt: when,
        entries: [pending(shop.id, amount), platform("ach_clearing", -amount)],
      });
    // Paid in September, returned in October: October's volume loses it; its count never had it.
    await move("charge", "ch_edge_old", 5_000, at("2026-09-30T23:59:59.999Z"));
    await move("ach_return", "ch_edge_old", -5_000, at("2026-10-02T09:00:00.000Z"));
    // Paid in October and returned, the return reversed: counted once.
    await move("charge", "ch_edge_new", 3_000, at("2026-10-03T09:00:00.000Z"));
    await move("ach_return", "ch_edge_new", -3_000, at("2026-10-04T09:00:00.000Z"));
    await move("ach_return_reversal", "ch_edge_new", 3_000, at("2026-10-05T09:00:00.000Z"));
    // Paid in October and returned: not counted.
    await move("charge", "ch_edge_gone", 1_000, at("2026-10-06T09:00:00.000Z"));
    await move("ach_return", "ch_edge_gone", -1_000, at("2026-10-07T09:00:00.000Z"));
    expect((await netVolumes(api.db, [shop.id], since)).get(shop.id)).toEqual({
      amount: -5_000 + 3_000 - 3_000 + 3_000 + 1_000 - 1_000,
      count: 1,
    });
  });
});

describe("a payout's lines, as the home's payout page reads them", () => {
  test("are the balance transactions it paid out, not its own payout line, and add up to it", async () => {
    const shop = await approvedMerchant(api, isv);
    await payRequest(api, isv, shop, 6_000);
    const refunded = await payRequest(api, isv, shop, 4_000);
    const refund = await api.call("POST", "/v1/refunds", {
      auth: isv.auth,
      body: { charge_id: refunded.json.charge.id, amount: 1_000 },
    });
    expect(refund.status).toBe(200);
    const settled = await api.call("POST", "/v1/test_helpers/settlement/run", {
      auth: isv.auth,
      body: { merchant_id: shop.id },
    });
    expect(settled.status).toBe(200);
    const [payout] = (await api.call("GET", `/v1/payouts?merchant_id=${shop.id}`, { auth: isv.auth })).json.data;
    // Sent: its own `payout` line is written (and names the payout), which is not one of its lines.
    await api.call("POST", `/v1/test_helpers/payouts/${payout.id}/advance`, { auth: isv.auth });
    const api_lines = (
      await api.call("GET", `/v1/balance_transactions?payout=${payout.id}&limit=100`, { auth: isv.auth })
    ).json.data as { id: string; type: string }[];
    expect(api_lines.map((t) => t.type).sort()).toEqual(["charge", "charge", "payout", "refund"]);
    const page = await payoutWithLines(api.db, { isvAccountId: isv.account_id, merchantId: shop.id }, payout.id);
    expect(page.lines.map((l) => l.id).sort()).toEqual(
      api_lines
        .filter((t) => t.type !== "payout")
        .map((t) => t.id)
        .sort(),
    );
    expect(page.totals.net).toBe(payout.amount);
  });
});
