import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";

import { ledgerEntries, ledgerPostings, settlements } from "@/lib/db/schema";
import { verifyLedger } from "@/lib/domain/ledger/run-ledger-check";
import { checkpointBalances } from "@/lib/ledger/balances";
import { checkLedger } from "@/lib/ledger/check";
import { post as postToLedger } from "@/lib/ledger/post";

import { startTestApi, type TestApi } from "../helpers/api";
import { approvedMerchant, tokenize } from "../helpers/payments";
import { until } from "../helpers/until";

// The ledger's API (docs/reference.md section 18): GET /v1/balance, GET /v1/balance_transactions
// (filters, a payout's lines adding up to it) and /{id}; the database refusing an unbalanced posting
// and any change to what was written.

const metricsToken = "ledger-metrics-token-0123456789";
let api: TestApi;
let isv: Awaited<ReturnType<TestApi["newIsv"]>>;
let merchant: Awaited<ReturnType<typeof approvedMerchant>>;

beforeAll(async () => {
  api = await startTestApi({ worker: true, metricsToken });
  isv = await api.newIsv("Balance ISV");
  merchant = await approvedMerchant(api, isv);
}, 120_000);
afterAll(() => api.close());

const get = (path: string, auth = isv.auth) => api.call("GET", path, { auth });
const post = (path: string, body?: unknown) => api.call("POST", path, { auth: isv.auth, body });

async function payByCard(amount: number) {
  const pr = (await post("/v1/scan_to_pay", { merchant_id: merchant.id, amount })).json;
  const res = await api.call("POST", `/v1/payment_requests/${pr.id}/pay`, {
    body: { token: await tokenize(api, merchant.publishableKey) },
  });
  expect(res.json.charge.status).toBe("AUTHORIZED");
  return res.json.charge as { id: string };
}

describe("balance and balance transactions", () => {
  test("a payment, a refund, a settlement and its payout: the balance moves from pending to available to the bank, and the payout's lines add up to it", async () => {
    const empty = await get(`/v1/balance?merchant_id=${merchant.id}`);
    expect(empty.status).toBe(200);
    expect(empty.json).toEqual({
      object: "balance",
      merchant_id: merchant.id,
      available: 0,
      pending: 0,
      reserved: 0,
      currency: "usd",
    });

    // Flat rate 2.90 % + $0.30: 100.00 → 3.20; 50.00 → 1.75.
    const c1 = await payByCard(10_000);
    const c2 = await payByCard(5_000);
    const refund = (await post("/v1/refunds", { charge_id: c1.id, amount: 2_500 })).json;
    expect((await get(`/v1/balance?merchant_id=${merchant.id}`)).json).toMatchObject({
      pending: 10_000 - 320 + 5_000 - 175 - 2_500,
      available: 0,
    });
    const lines = (await get(`/v1/balance_transactions?merchant_id=${merchant.id}`)).json;
    expect(
      lines.data.map(
        (t: { type: string; source: string; amount: number; fee: number; net: number; status: string }) => [
          t.type,
          t.source,
          t.amount,
          t.fee,
          t.net,
          t.status,
        ],
      ),
    ).toEqual([
      ["refund", refund.id, -2_500, 0, -2_500, "pending"],
      ["charge", c2.id, 5_000, 175, 4_825, "pending"],
      ["charge", c1.id, 10_000, 320, 9_680, "pending"],
    ]);
    expect(lines.data[2].available_on).toMatch(/^\d{4}-\d{2}-\d{2}$/);

    // Filters: by type and by source; one by id.
    expect((await get(`/v1/balance_transactions?merchant_id=${merchant.id}&type=refund`)).json.data).toHaveLength(1);
    expect((await get(`/v1/balance_transactions?source=${c2.id}`)).json.data.map((t: { id: string }) => t.id)).toEqual([
      lines.data[1].id,
    ]);
    const one = await get(`/v1/balance_transactions/${lines.data[1].id}`);
    expect(one.json).toEqual(lines.data[1]);
    expect((await get(`/v1/balance_transactions?type=bogus`)).status).toBe(400);
    expect((await get(`/v1/balance_transactions?available_on[gte]=tomorrow`)).status).toBe(400);
    expect((await get(`/v1/balance_transactions?available_on[gte]=2999-01-01`)).json.data).toEqual([]);

    // The settlement makes the net available, and its payout takes it to the bank.
    const settlement = (await post("/v1/test_helpers/settlement/run", { merchant_id: merchant.id })).json.data[0];
    const net = 10_000 - 320 + 5_000 - 175 - 2_500;
    expect(settlement.net).toBe(net);
    // The payout's money leaves the available balance when it is sent (the worker does it at once).
    const payout = await until(
      async () => (await get(`/v1/payouts?merchant_id=${merchant.id}`)).json.data[0],
      (p) => p !== undefined && p.status !== "pending",
      20_000,
      "the settlement's payout, sent",
    );
    expect(payout.amount).toBe(net);
    // Once the payout left: nothing pending, nothing available (it is on its way).
    expect((await get(`/v1/balance?merchant_id=${merchant.id}`)).json).toMatchObject({ pending: 0, available: 0 });
    const ofPayout = (await get(`/v1/balance_transactions?payout=${payout.id}`)).json.data as {
      type: string;
      net: number;
      status: string;
      payout_id: string;
    }[];
    const payoutLine = ofPayout.find((t) => t.type === "payout")!;
    expect(payoutLine.net).toBe(-net);
    const paidOut = ofPayout.filter((t) => t.type !== "payout");
    expect(paidOut.map((t) => t.type).sort()).toEqual(["charge", "charge", "refund"]);
    expect(paidOut.every((t) => t.status === "available" && t.payout_id === payout.id)).toBe(true);
    expect(paidOut.reduce((sum, t) => sum + t.net, 0)).toBe(payout.amount);
    // Every line, and the payout's own transaction, are available on the day the payout arrives
    // (the settlement ran before its night here: the day foreseen when they were written was later).
    const arrival = (await get(`/v1/payouts/${payout.id}`)).json.arrival_date;
    expect(arrival).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect((ofPayout as unknown as { available_on: string }[]).map((t) => t.available_on)).toEqual(
      ofPayout.map(() => arrival),
    );
    expect(await checkLedger(api.db)).toEqual([]);
  }, 90_000);

  test("an ISV names the merchant; another ISV's merchant and transactions are 404; a platform move is not a balance transaction", async () => {
    const missing = await get("/v1/balance");
    expect(missing.status).toBe(400);
    expect(missing.json.error.param).toBe("merchant_id");
    const other = await api.newIsv("Other ISV");
    expect((await get(`/v1/balance?merchant_id=${merchant.id}`, other.auth)).status).toBe(404);
    const [mine] = await api.db
      .select()
      .from(ledgerPostings)
      .where(eq(ledgerPostings.merchantId, merchant.id))
      .limit(1);
    expect((await get(`/v1/balance_transactions/${mine!.id}`, other.auth)).status).toBe(404);
    expect((await get(`/v1/balance_transactions?merchant_id=${merchant.id}`, other.auth)).json.data).toEqual([]);
    const [settlementMove] = await api.db
      .select()
      .from(ledgerPostings)
      .where(eq(ledgerPostings.type, "settlement"))
      .limit(1);
    expect((await get(`/v1/balance_transactions/${settlementMove!.id}`)).status).toBe(404);
  });
});

describe("the database keeps the ledger whole", () => {
  const refused = (p: Promise<unknown>) =>
    p.then(
      () => "accepted",
      (e: Error & { cause?: Error }) => String(e.cause?.message ?? e.message),
    );

  test("an unbalanced posting is refused, whoever writes it; nothing of it is kept", async () => {
    const before = await api.db.select({ n: sql<number>`count(*)::int` }).from(ledgerPostings);
    // The writer refuses it before the database sees it.
    await expect(
      postToLedger(api.db, {
        isvAccountId: isv.account_id,
        merchantId: merchant.id,
        type: "adjustment",
        sourceId: "ch_x",
        amount: 100,
        description: "unbalanced",
        entries: [
          { account: "pending", owner: merchant.id, amount: 100 },
          { account: "platform_cash", owner: null, amount: -99 },
        ],
      }),
    ).rejects.toThrow(/sum to 1, not 0/);
    // And the database refuses entries written by hand that do not sum to zero, in one transaction with their posting.
    const outcome = await refused(
      api.db.transaction(async (tx) => {
        await tx.insert(ledgerPostings).values({
          id: "txn_handmade",
          isvAccountId: isv.account_id,
          merchantId: merchant.id,
          type: "adjustment",
          sourceId: "ch_x",
          amount: 100,
          net: 100,
          description: "by hand",
          availableOn: "2026-01-02",
        });
        await tx.insert(ledgerEntries).values([
          { postingId: "txn_handmade", account: "pending", ownerId: merchant.id, amount: 100 },
          { postingId: "txn_handmade", account: "platform_cash", ownerId: null, amount: -1 },
        ]);
      }),
    );
    expect(outcome).toMatch(/does not sum to zero/);
    expect(await api.db.select({ n: sql<number>`count(*)::int` }).from(ledgerPostings)).toEqual(before);
  });

  test("entries are never updated or deleted; what a posting moved is written once", async () => {
    const [entry] = await api.db.select().from(ledgerEntries).limit(1);
    expect(
      await refused(api.db.update(ledgerEntries).set({ amount: 1 }).where(eq(ledgerEntries.id, entry!.id))),
    ).toMatch(/append-only/);
    expect(await refused(api.db.delete(ledgerEntries).where(eq(ledgerEntries.id, entry!.id)))).toMatch(/append-only/);
    expect(await refused(api.db.execute(sql`truncate ledger_entries cascade`))).toMatch(/append-only/);
    const [posting] = await api.db.select().from(ledgerPostings).where(eq(ledgerPostings.type, "charge")).limit(1);
    expect(
      await refused(api.db.update(ledgerPostings).set({ amount: 1, net: 1 }).where(eq(ledgerPostings.id, posting!.id))),
    ).toMatch(/written once/);
    expect(
      await refused(
        api.db.update(ledgerPostings).set({ settlementId: "stl_other" }).where(eq(ledgerPostings.id, posting!.id)),
      ),
    ).toMatch(/written once/);
    expect(await refused(api.db.delete(ledgerPostings).where(eq(ledgerPostings.id, posting!.id)))).toMatch(
      /append-only/,
    );
    const [still] = await api.db.select().from(ledgerPostings).where(eq(ledgerPostings.id, posting!.id));
    expect(still).toEqual(posting);
    expect(await checkLedger(api.db)).toEqual([]);
  });
});

describe("the daily ledger check", () => {
  const violationsMetric = async () => {
    const text = await (
      await fetch(`${api.baseUrl}/metrics`, { headers: { authorization: `Bearer ${metricsToken}` } })
    ).text();
    return Object.fromEntries(
      [...text.matchAll(/^ledger_invariant_violations\{invariant="(\w+)"\} (\d+)$/gm)].map((m) => [m[1], Number(m[2])]),
    );
  };

  test("names what broke, in the metric and the answer, and reads 0 again once it holds", async () => {
    expect(await verifyLedger(api.db)).toEqual([]);
    expect((await violationsMetric()).settlement_equals_its_postings).toBe(0);
    // A settlement's figures changed outside the ledger (a settlement row is not append-only): caught.
    // Changed in a transaction rolled back at the end, so no other test (a shared PostgreSQL) ever sees it.
    const [settlement] = await api.db.select().from(settlements).limit(1);
    const found = await api.db
      .transaction(async (tx) => {
        await tx
          .update(settlements)
          .set({ net: settlement!.net + 1 })
          .where(eq(settlements.id, settlement!.id));
        throw Object.assign(new Error("roll back"), { found: await verifyLedger(tx) });
      })
      .catch((e: { found?: unknown }) => e.found);
    expect(found).toEqual([
      {
        invariant: "settlement_equals_its_postings",
        id: settlement!.id,
        expected: settlement!.net - settlement!.carriedIn + 1,
        actual: settlement!.net - settlement!.carriedIn,
      },
    ]);
    expect(await violationsMetric()).toMatchObject({ settlement_equals_its_postings: 1, posting_sums_to_zero: 0 });
    expect(await verifyLedger(api.db)).toEqual([]);
    expect((await violationsMetric()).settlement_equals_its_postings).toBe(0);
  });
});

describe("balance checkpoints", () => {
  test("a balance is its checkpoint plus the later entries: the same figures before and after one; a checkpoint that does not hold its entries is caught", async () => {
    const before = (await get(`/v1/balance?merchant_id=${merchant.id}`)).json;
    // Everything so far (no margin: the test's own entries are seconds old).
    expect(await checkpointBalances(api.db, { marginMs: 0, ownerId: merchant.id })).toBeGreaterThan(0);
    expect((await get(`/v1/balance?merchant_id=${merchant.id}`)).json).toEqual(before);
    // Then more money: the checkpoint and the entries after it.
    await payByCard(1_000);
    const after = (await get(`/v1/balance?merchant_id=${merchant.id}`)).json;
    expect(after.pending).toBe(before.pending + 1_000 - 59);
    expect(await checkLedger(api.db, merchant.id)).toEqual([]);
    // The default margin leaves entries younger than ten minutes out of a checkpoint: nothing of this merchant moves.
    expect(await checkpointBalances(api.db, { ownerId: merchant.id })).toBe(0);
    expect((await get(`/v1/balance?merchant_id=${merchant.id}`)).json).toEqual(after);
    // A checkpoint off by a cent (in a transaction rolled back): the check names it.
    const found = await api.db
      .transaction(async (tx) => {
        await tx.execute(
          sql`update ledger_balance_checkpoints set amount = amount + 1 where owner_id = ${merchant.id} and account = 'available'`,
        );
        throw Object.assign(new Error("roll back"), { found: await checkLedger(tx, merchant.id) });
      })
      .catch((e: { found?: unknown }) => e.found);
    expect(found).toEqual([
      expect.objectContaining({ invariant: "checkpoint_is_its_entries", id: `${merchant.id}:available` }),
    ]);
  });
});
