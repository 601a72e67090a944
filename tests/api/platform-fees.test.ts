import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";

import { rowsOf } from "@/lib/db/client";
import { accounts, events, merchants, paymentRequests } from "@/lib/db/schema";
import { rotateApiKey } from "@/lib/domain/accounts/rotate-api-key";
import { checkLedger } from "@/lib/ledger/check";

import { startTestApi, type TestApi } from "../helpers/api";
import { approvedMerchant, payRequest, tokenize } from "../helpers/payments";

// The ISV's platform fee (docs/reference.md section 19): given on a payment's creation or chosen by
// the account's rules, refused when the payment cannot bear it, taken from the merchant's share to
// the ISV's revenue in the ledger, given back pro rata by refunds (or kept), named for the ISV
// wherever the merchant reads it, and never shown to the paying customer.

let api: TestApi;
let isv: Awaited<ReturnType<TestApi["newIsv"]>>;
let merchant: Awaited<ReturnType<typeof approvedMerchant>>;
let own: string;

beforeAll(async () => {
  api = await startTestApi({ worker: true });
  isv = await api.newIsv("Fee ISV");
  merchant = await approvedMerchant(api, isv);
  const [row] = await api.db.select().from(merchants).where(eq(merchants.id, merchant.id));
  const rotated = await rotateApiKey(api.db, row!.merchantAccountId!, false);
  own = `Basic ${Buffer.from(`${rotated.account_sid}:${rotated.secret_key}`).toString("base64")}`;
}, 120_000);
afterAll(() => api.close());

const get = (path: string, auth = isv.auth) => api.call("GET", path, { auth });
const post = (path: string, body: unknown, auth = isv.auth) => api.call("POST", path, { auth, body });
const patchSettings = (settings: unknown) => api.call("PATCH", "/v1/account", { auth: isv.auth, body: { settings } });
const requestCount = async () =>
  (await api.db.select().from(paymentRequests).where(eq(paymentRequests.merchantId, merchant.id))).length;
/** What the ISV's revenue account holds in the ledger. */
async function isvRevenue() {
  const [row] = rowsOf<{ total: string | number | null }>(
    await api.db.execute(
      sql`select sum(amount) as total from ledger_entries where account = 'revenue' and owner_id = ${isv.account_id}`,
    ),
  );
  return Number(row?.total ?? 0);
}
async function eventsOf(type: string, objectId?: string) {
  return api.db
    .select()
    .from(events)
    .where(
      and(
        eq(events.type, type as never),
        eq(events.accountId, isv.account_id),
        ...(objectId ? [eq(events.objectId, objectId)] : []),
      ),
    );
}

describe("a platform fee given on the payment's creation", () => {
  test("$100.00 with a $1.50 fee: the charge's net is less its fee and the ISV's; the ledger moves it to the ISV; the customer never sees it", async () => {
    const before = await isvRevenue();
    const paid = await payRequest(api, isv, merchant, 10_000, {}, { platform_fee: { amount: 150 } });
    expect(paid.status).toBe(200);
    expect(JSON.stringify(paid.json)).not.toMatch(/platform/);
    const request = (await get(`/v1/payment_requests/${paid.json.payment_request.id}`)).json;
    expect(request.platform_fee).toEqual({ amount: 150 });
    const charge = (await get(`/v1/charges/${paid.json.charge.id}`)).json;
    expect(charge.platform_fee).toEqual({ amount: 150, refunded: 0 });
    expect(charge.fee).toBeGreaterThan(0);
    expect(charge.net).toBe(10_000 - charge.fee - 150);
    // Its events say what the ledger says (written with the postings, not read back).
    for (const type of ["charge.authorized", "charge.paid"])
      expect((await eventsOf(type, charge.id))[0]!.data).toMatchObject({ net: charge.net, settlement_id: null });
    // The merchant reads it too (it is its money): its own key.
    expect((await get(`/v1/charges/${charge.id}`, own)).json.platform_fee).toEqual({ amount: 150, refunded: 0 });
    // The ledger: a balance transaction named for the ISV, from the merchant to the ISV's revenue.
    const lines = (await get(`/v1/balance_transactions?merchant_id=${merchant.id}&source=${charge.id}`)).json.data;
    expect(lines.map((l: { type: string; amount: number }) => [l.type, l.amount]).sort()).toEqual(
      [
        ["charge", 10_000],
        ["platform_fee", -150],
      ].sort(),
    );
    expect(lines.find((l: { type: string }) => l.type === "platform_fee").description).toBe("Fee ISV fee");
    expect((await isvRevenue()) - before).toBe(150);
    // Its event, once.
    const created = await eventsOf("platform_fee.created");
    const mine = created.filter((e) => (e.data as { charge_id: string }).charge_id === charge.id);
    expect(mine).toHaveLength(1);
    expect(mine[0]!.data).toMatchObject({
      object: "platform_fee",
      charge_id: charge.id,
      refund_id: null,
      merchant_id: merchant.id,
      amount: 150,
      charge_platform_fee: { amount: 150, refunded: 0 },
    });
    expect(await checkLedger(api.db, merchant.id)).toEqual([]);
  });

  test("a percent of the total within its bounds, half up", async () => {
    const make = async (amount: number, platform_fee: unknown) =>
      (await post("/v1/scan_to_pay", { merchant_id: merchant.id, amount, platform_fee })).json.platform_fee;
    expect(await make(10_000, { percent: 2.5 })).toEqual({ amount: 250 });
    expect(await make(1_234, { percent: 1.15 })).toEqual({ amount: 14 });
    expect(await make(1_000, { percent: 2.5, min: 50 })).toEqual({ amount: 50 });
    expect(await make(100_000, { percent: 2.5, max: 200 })).toEqual({ amount: 200 });
    // A fee of 0 is no fee.
    expect(await make(1_000, { amount: 0 })).toBeNull();
  });

  test("more than the payment can bear once its processing fee is taken: 400 naming the field, nothing made; the edge itself passes", async () => {
    const count = await requestCount();
    const tooMuch = await post("/v1/scan_to_pay", {
      merchant_id: merchant.id,
      amount: 1_000,
      platform_fee: { amount: 1_000 },
    });
    expect(tooMuch.status).toBe(400);
    expect(tooMuch.json.error).toMatchObject({ code: "platform_fee_too_large", param: "platform_fee" });
    const bearable = Number(/leaves (\d+)/.exec(tooMuch.json.error.message)![1]);
    expect(bearable).toBeGreaterThan(0);
    expect(bearable).toBeLessThan(1_000);
    const over = await post("/v1/scan_to_pay", {
      merchant_id: merchant.id,
      amount: 1_000,
      platform_fee: { amount: bearable + 1 },
    });
    expect(over.status).toBe(400);
    expect(await requestCount()).toBe(count);
    // Exactly what it bears: made, and paid by the dearest card, the merchant keeps 0 or more.
    const edge = await post("/v1/scan_to_pay", {
      merchant_id: merchant.id,
      amount: 1_000,
      platform_fee: { amount: bearable },
    });
    expect(edge.status).toBe(200);
    const token = await tokenize(api, merchant.publishableKey, "378282246310005");
    const paid = await api.call("POST", `/v1/payment_requests/${edge.json.id}/pay`, { body: { token } });
    expect(paid.status).toBe(200);
    const charge = (await get(`/v1/charges/${paid.json.charge.id}`)).json;
    expect(charge.platform_fee.amount).toBe(bearable);
    expect(charge.net).toBeGreaterThanOrEqual(0);
    expect(charge.net).toBe(1_000 - charge.fee - bearable);
  });

  test("bad fees are refused with the field named; a merchant's own key cannot give one", async () => {
    for (const platform_fee of [
      { percent: 2.555 },
      { percent: 101 },
      { amount: -1 },
      { amount: 1.5 },
      { amount: 5, percent: 1 },
    ]) {
      const res = await post("/v1/scan_to_pay", { merchant_id: merchant.id, amount: 1_000, platform_fee });
      expect(res.status, JSON.stringify(platform_fee)).toBe(400);
      expect(res.json.error.param ?? res.json.error.errors?.[0]?.param, JSON.stringify(platform_fee)).toMatch(
        /^platform_fee/,
      );
    }
    const count = await requestCount();
    const byMerchant = await post(
      "/v1/scan_to_pay",
      { merchant_id: merchant.id, amount: 1_000, platform_fee: { amount: 10 } },
      own,
    );
    expect(byMerchant.status).toBe(400);
    expect(byMerchant.json.error).toMatchObject({ code: "parameter_not_allowed", param: "platform_fee" });
    expect(await requestCount()).toBe(count);
  });
});

describe("the account's platform fee rules", () => {
  test("the first matching rule sets the fee; the payment's own fee wins; with no match, none", async () => {
    const set = await patchSettings({
      platform_fee_rules: [
        { match: { payment_type: "INVOICE" }, fee: { amount: 30 } },
        { match: { card_present: false, min_amount: 5_000 }, fee: { percent: 1, min: 60 } },
      ],
    });
    expect(set.status).toBe(200);
    expect(set.json.settings.platform_fee_rules).toHaveLength(2);
    const make = async (path: string, amount: number, more: object = {}) => {
      const res = await post(path, { merchant_id: merchant.id, amount, ...more });
      expect(res.status, res.text).toBe(200);
      return res.json.platform_fee;
    };
    expect(await make("/v1/invoice", 1_000, { sendVia: "none" })).toEqual({ amount: 30 });
    expect(await make("/v1/scan_to_pay", 5_000)).toEqual({ amount: 60 });
    expect(await make("/v1/manual", 8_000)).toEqual({ amount: 80 });
    expect(await make("/v1/scan_to_pay", 4_999)).toBeNull();
    // A terminal reads the card: card_present false does not match it.
    expect(await make("/v1/terminal", 9_000, { terminal_id: merchant.terminalId, deadline_seconds: 30 })).toBeNull();
    await post(`/v1/terminal/${merchant.terminalId}/cancel`, {}).catch(() => undefined);
    expect(await make("/v1/scan_to_pay", 9_000, { platform_fee: { amount: 5 } })).toEqual({ amount: 5 });
    // A merchant's own key: the ISV's rules apply to it too.
    const mine = await post("/v1/scan_to_pay", { merchant_id: merchant.id, amount: 6_000 }, own);
    expect(mine.json.platform_fee).toEqual({ amount: 60 });
    await patchSettings({ platform_fee_rules: [] });
  });

  test("a rule naming a merchant that is not the ISV's, or a bad fee, is refused and nothing changes", async () => {
    await patchSettings({ platform_fee_rules: [{ match: { merchant_ids: [merchant.id] }, fee: { amount: 25 } }] });
    const stranger = await patchSettings({
      platform_fee_rules: [{ match: { merchant_ids: [merchant.id, "mer_nobody"] }, fee: { amount: 5 } }],
    });
    expect(stranger.status).toBe(400);
    expect(stranger.json.error.errors ?? [stranger.json.error]).toContainEqual(
      expect.objectContaining({ param: "settings.platform_fee_rules[0].match.merchant_ids[1]" }),
    );
    const badFee = await patchSettings({ platform_fee_rules: [{ match: {}, fee: {} }] });
    expect(badFee.status).toBe(400);
    const account = (await get("/v1/account")).json;
    expect(account.settings.platform_fee_rules).toEqual([
      { match: { merchant_ids: [merchant.id] }, fee: { amount: 25 } },
    ]);
    expect(account.settings.platform_fee_refund).toBe("pro_rata");
    await patchSettings({ platform_fee_rules: [] });
  });
});

describe("refunds and the platform fee", () => {
  test("three refunds of a third give back 33 + 34 + 33 cents of a $1.00 fee, each a balance transaction and an event", async () => {
    const before = await isvRevenue();
    const paid = await payRequest(api, isv, merchant, 999, {}, { platform_fee: { amount: 100 } });
    const chargeId = paid.json.charge.id as string;
    const given: number[] = [];
    const refundIds: string[] = [];
    for (let i = 0; i < 3; i++) {
      const refund = await post("/v1/refunds", { charge_id: chargeId, amount: 333 });
      expect(refund.status, refund.text).toBe(200);
      given.push(refund.json.platform_fee_refund);
      refundIds.push(refund.json.id);
    }
    expect(given).toEqual([33, 34, 33]);
    const charge = (await get(`/v1/charges/${chargeId}`)).json;
    expect(charge.platform_fee).toEqual({ amount: 100, refunded: 100 });
    expect((await isvRevenue()) - before).toBe(0);
    const refunded = (await eventsOf("platform_fee.refunded")).filter(
      (e) => (e.data as { charge_id: string }).charge_id === chargeId,
    );
    expect(refunded.map((e) => (e.data as { amount: number }).amount).sort()).toEqual([33, 33, 34]);
    // Exactly one line per refund, its own amount, named for the ISV (the merchant's other lines aside).
    const lines = (await get(`/v1/balance_transactions?merchant_id=${merchant.id}&type=platform_fee_refund&limit=100`))
      .json.data as { source: string; amount: number; description: string }[];
    expect(
      lines
        .filter((l) => refundIds.includes(l.source))
        .map((l) => [l.source, l.amount, l.description])
        .sort(),
    ).toEqual(refundIds.map((id, i) => [id, given[i], "Fee ISV fee refunded"]).sort());
    expect(await checkLedger(api.db, merchant.id)).toEqual([]);
  });

  test("refunds racing on one charge give back exactly the whole fee", async () => {
    const paid = await payRequest(api, isv, merchant, 1_000, {}, { platform_fee: { amount: 77 } });
    const chargeId = paid.json.charge.id as string;
    const results = await Promise.all(
      Array.from({ length: 5 }, () => post("/v1/refunds", { charge_id: chargeId, amount: 200 })),
    );
    expect(results.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
    expect(results.reduce((sum, r) => sum + r.json.platform_fee_refund, 0)).toBe(77);
    expect((await get(`/v1/charges/${chargeId}`)).json.platform_fee).toEqual({ amount: 77, refunded: 77 });
    expect(await checkLedger(api.db, merchant.id)).toEqual([]);
  });

  test("settings.platform_fee_refund keep: a refund gives none of it back, and says so", async () => {
    expect((await patchSettings({ platform_fee_refund: "keep" })).status).toBe(200);
    const paid = await payRequest(api, isv, merchant, 2_000, {}, { platform_fee: { amount: 90 } });
    const chargeId = paid.json.charge.id as string;
    const refund = await post("/v1/refunds", { charge_id: chargeId });
    expect(refund.json).toMatchObject({ amount: 2_000, platform_fee_refund: 0 });
    expect((await get(`/v1/charges/${chargeId}`)).json.platform_fee).toEqual({ amount: 90, refunded: 0 });
    expect(
      (await eventsOf("platform_fee.refunded")).filter((e) => (e.data as { charge_id: string }).charge_id === chargeId),
    ).toHaveLength(0);
    expect((await patchSettings({ platform_fee_refund: "pro_rata" })).status).toBe(200);
    expect((await patchSettings({ platform_fee_refund: "never" })).status).toBe(400);
  });
});

describe("the settlement and the statement", () => {
  test("a settlement takes the platform fees less their refunds; its net is less them; the statement names the fee for the ISV and its CSV adds up", async () => {
    // A fresh merchant: its settlement holds exactly these payments.
    const shop = await approvedMerchant(api, isv);
    const a = await payRequest(api, isv, shop, 10_000, {}, { platform_fee: { amount: 300 } });
    const b = await payRequest(api, isv, shop, 5_000, {}, { platform_fee: { percent: 2 } });
    await post("/v1/refunds", { charge_id: a.json.charge.id, amount: 5_000 });
    const fees =
      (await get(`/v1/charges/${a.json.charge.id}`)).json.fee + (await get(`/v1/charges/${b.json.charge.id}`)).json.fee;
    const run = await post("/v1/test_helpers/settlement/run", { merchant_id: shop.id });
    expect(run.status, run.text).toBe(200);
    const settlement = (await get(`/v1/settlements?merchant_id=${shop.id}`)).json.data[0];
    // 300 + 100, less 150 given back by the half refund.
    expect(settlement).toMatchObject({ gross: 15_000, refunds: 5_000, fees, platform_fees: 250 });
    expect(settlement.net).toBe(15_000 - 5_000 - fees - 250);
    expect(await checkLedger(api.db, shop.id)).toEqual([]);

    const period = new Date().toISOString().slice(0, 7);
    const statement = (await post("/v1/test_helpers/statements/generate", { merchant_id: shop.id, period })).json;
    expect(statement).toMatchObject({ gross_volume: 15_000, refunds: 5_000, platform_fees: 250 });
    expect(statement.net).toBe(15_000 - 5_000 - statement.fees - 250);
    const csv = await (
      await fetch(`${api.baseUrl}/v1/statements/${shop.id}/download/${statement.id}?format=csv`, {
        headers: { Authorization: isv.auth },
      })
    ).text();
    const rows = csv
      .trim()
      .split("\n")
      .slice(1)
      .map((line) => line.split(","));
    const feeRow = rows.find((r) => r[0] === "platform_fee")!;
    expect(feeRow[10]).toBe("Fee ISV fee");
    const netCents = rows.reduce((sum, r) => sum + Math.round(Number(r[6]) * 100), 0);
    expect(netCents).toBe(statement.net);
  });
});

test("the ISV's account shows its rules and refund policy; an ISV's settings saved before them read the defaults", async () => {
  const [row] = await api.db.select().from(accounts).where(eq(accounts.id, isv.account_id));
  const { platform_fee_rules: _r, platform_fee_refund: _p, ...older } = row!.settings as Record<string, unknown>;
  await api.db
    .update(accounts)
    .set({ settings: older as never })
    .where(eq(accounts.id, isv.account_id));
  const account = (await get("/v1/account")).json;
  expect(account.settings).toMatchObject({ platform_fee_rules: [], platform_fee_refund: "pro_rata" });
  const paid = await payRequest(api, isv, merchant, 1_000);
  expect(paid.status).toBe(200);
  expect((await get(`/v1/charges/${paid.json.charge.id}`)).json.platform_fee).toBeNull();
});
