import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";

import { ledgerEntries, ledgerPostings, merchants } from "@/lib/db/schema";
import { changeBankAccount } from "@/lib/domain/home/settings";
import { settleAll } from "@/lib/domain/settlements/run-settlement";
import { checkLedger } from "@/lib/ledger/check";
import { merchantMonthSums } from "@/lib/ledger/merchant-months";
import { SANDBOX_RTP_REFUSED_ACCOUNT } from "@/lib/payouts/instant-rail";

import { startTestApi, type TestApi } from "../helpers/api";
import { application, freshHomeSession } from "../helpers/fixtures";
import { approvedMerchant, tokenize } from "../helpers/payments";
import { until } from "../helpers/until";

// Instant payouts (docs/reference.md section 20), end to end with the worker: the quote, the payout
// paid within seconds, its fee split in the ledger between the platform (the cost profile's 100 bps)
// and the ISV's markup (50 bps here), the rail's refusal (the money and the fee back, or a standard
// payout by the ISV's fallback), the daily limit. Fees: 100.00 → 3.20, so 96.80 available.

let api: TestApi;
let isv: Awaited<ReturnType<TestApi["newIsv"]>>;
beforeAll(async () => {
  api = await startTestApi({ worker: true });
  isv = await api.newIsv("Instant ISV");
}, 120_000);
afterAll(() => api.close());

type Merchant = Awaited<ReturnType<typeof approvedMerchant>>;
const post = (path: string, body?: unknown) => api.call("POST", path, { auth: isv.auth, body });
const get = (path: string) => api.call("GET", path, { auth: isv.auth });
const patch = (path: string, body: unknown) => api.call("PATCH", path, { auth: isv.auth, body });
const quote = async (m: Merchant, amount?: number) =>
  (await get(`/v1/payouts/instant_quote?merchant_id=${m.id}${amount ? `&amount=${amount}` : ""}`)).json;
const balance = async (m: Merchant) => (await get(`/v1/balance?merchant_id=${m.id}`)).json;

/** An approved merchant paid out only when asked, with 96.80 available. */
async function fundedMerchant(bank: Record<string, string> = {}) {
  const merchant = await approvedMerchant(api, isv, (app) => Object.assign(app.bank_account, bank));
  await patch(`/v1/merchants/${merchant.id}`, { payout_schedule: { interval: "manual" } });
  const pr = (await post("/v1/scan_to_pay", { merchant_id: merchant.id, amount: 10_000 })).json;
  await api.call("POST", `/v1/payment_requests/${pr.id}/pay`, {
    body: { token: await tokenize(api, merchant.publishableKey) },
  });
  await settleAll(api.db, new Date(Date.now() + 1), { merchantId: merchant.id });
  expect(await balance(merchant)).toMatchObject({ available: 9_680 });
  return merchant;
}

describe("instant payouts", () => {
  test("refused in words until the ISV enables them; nothing made", async () => {
    const merchant = await fundedMerchant();
    expect(await quote(merchant)).toMatchObject({
      object: "instant_payout_quote",
      available: 0,
      rail: null,
      unavailable_reason: "Instant payouts are not turned on by your software provider",
    });
    const refused = await post("/v1/payouts", { merchant_id: merchant.id, method: "instant", amount: 1_000 });
    expect(refused.status).toBe(400);
    expect(refused.json.error.code).toBe("instant_payout_unavailable");
    expect((await get(`/v1/payouts?merchant_id=${merchant.id}`)).json.data).toEqual([]);
    expect(await balance(merchant)).toMatchObject({ available: 9_680 });
  }, 90_000);

  test("paid within seconds; the fee out of the balance, split between the platform's cost and the ISV's markup; the residual counts the markup", async () => {
    const enabled = await patch("/v1/account", {
      settings: { instant_payouts_enabled: true, instant_payout_markup_bps: 50 },
    });
    expect(enabled.json.settings).toMatchObject({
      instant_payouts_enabled: true,
      instant_payout_markup_bps: 50,
      instant_payout_fallback: "return",
      instant_payout_daily_limit: 1_000_000,
    });
    const merchant = await fundedMerchant();
    expect((await get(`/v1/merchants/${merchant.id}`)).json.merchant.bank_account.instant_eligible).toBe(true);
    // The most: 95.37 + its fee of 1.43 (1.5 %, half up) = 96.80.
    expect(await quote(merchant)).toMatchObject({
      available: 9_537,
      amount: 9_537,
      fee: 143,
      fee_bps: 150,
      rail: "rtp",
    });
    expect(await quote(merchant, 5_000)).toMatchObject({ amount: 5_000, fee: 75, unavailable_reason: null });
    const made = await post("/v1/payouts", { merchant_id: merchant.id, method: "instant", amount: 5_000 });
    expect(made.status, made.text).toBe(200);
    expect(made.json).toMatchObject({ method: "instant", rail: "rtp", fee: 75, amount: 5_000, automatic: false });
    const paid = await until(
      async () => (await get(`/v1/payouts/${made.json.id}`)).json,
      (p) => p.status === "paid",
      30_000,
      "the instant payout paid",
    );
    expect(await balance(merchant)).toMatchObject({ available: 9_680 - 5_000 - 75 });
    expect(paid.arrival_date).toBe(new Date(paid.created_at).toISOString().slice(0, 10));
    // The fee's posting: 0.75 from the merchant, 0.50 the platform's, 0.25 the ISV's.
    const [fee] = await api.db
      .select()
      .from(ledgerPostings)
      .where(and(eq(ledgerPostings.sourceId, made.json.id), eq(ledgerPostings.type, "instant_payout_fee")));
    expect(fee).toMatchObject({ amount: -75, net: -75 });
    const entries = await api.db.select().from(ledgerEntries).where(eq(ledgerEntries.postingId, fee!.id));
    expect(entries.map((e) => `${e.account} ${e.amount}`).sort()).toEqual([
      "available -75",
      "processing_revenue 50",
      "revenue 25",
    ]);
    expect(await checkLedger(api.db, merchant.id)).toEqual([]);
    const now = new Date();
    const month = await merchantMonthSums(
      api.db,
      isv.account_id,
      new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1)),
      new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1)),
    );
    expect(month.find((m) => m.merchantId === merchant.id)?.platformFees).toBe(25);
    // More than what is left with its fee: refused, nothing made.
    const tooMuch = await post("/v1/payouts", { merchant_id: merchant.id, method: "instant", amount: 4_600 });
    expect(tooMuch.json.error.code).toBe("insufficient_funds");
    expect((await get(`/v1/payouts?merchant_id=${merchant.id}`)).json.data).toHaveLength(1);
  }, 90_000);

  test("four at once never draw more than is available with their fees (a race on PostgreSQL)", async () => {
    const merchant = await fundedMerchant();
    const answers = await Promise.all(
      [0, 1, 2, 3].map(() => post("/v1/payouts", { merchant_id: merchant.id, method: "instant", amount: 4_000 })),
    );
    // 40.00 + 0.60 twice is 81.20 of the 96.80; a third would need 121.80.
    expect(answers.map((a) => a.status).sort()).toEqual([200, 200, 400, 400]);
    await until(
      async () => (await get(`/v1/payouts?merchant_id=${merchant.id}`)).json.data as { status: string }[],
      (rows) => rows.length === 2 && rows.every((p) => p.status === "paid"),
      30_000,
      "both instant payouts paid",
    );
    expect(await balance(merchant)).toMatchObject({ available: 9_680 - 2 * 4_060 });
    expect(await checkLedger(api.db, merchant.id)).toEqual([]);
  }, 90_000);

  test("the rail refuses at sending: money and fee back, no new bank account asked; by the ISV's fallback, a standard payout at once", async () => {
    const merchant = await fundedMerchant({
      account_number: SANDBOX_RTP_REFUSED_ACCOUNT,
      account_number_confirm: SANDBOX_RTP_REFUSED_ACCOUNT,
    });
    const made = await post("/v1/payouts", { merchant_id: merchant.id, method: "instant", amount: 4_000 });
    expect(made.status, made.text).toBe(200);
    const failed = await until(
      async () => (await get(`/v1/payouts/${made.json.id}`)).json,
      (p) => p.status === "failed",
      30_000,
      "the refused instant payout",
    );
    expect(failed.failure_code).toBe("instant_refused");
    expect(await balance(merchant)).toMatchObject({ available: 9_680 });
    const row = (await get(`/v1/merchants/${merchant.id}`)).json;
    expect(JSON.stringify(row.requirements)).not.toContain("payout_failed");
    expect(await checkLedger(api.db, merchant.id)).toEqual([]);
    await patch("/v1/account", { settings: { instant_payout_fallback: "standard" } });
    const again = await post("/v1/payouts", { merchant_id: merchant.id, method: "instant", amount: 4_000 });
    await until(
      async () => (await get(`/v1/payouts/${again.json.id}`)).json.status,
      (s) => s === "failed",
      30_000,
      "the second refusal",
    );
    const all = (await get(`/v1/payouts?merchant_id=${merchant.id}`)).json.data as Record<string, any>[];
    const standard = all.find((p) => p.method === "standard");
    expect(standard).toMatchObject({ amount: 4_000, automatic: false, fee: null, rail: null });
    await until(
      async () => (await get(`/v1/payouts/${standard!.id}`)).json.status,
      (status) => status !== "pending",
      30_000,
      "the standard fallback payout sent",
    );
    expect(await balance(merchant)).toMatchObject({ available: 9_680 - 4_000 });
    expect(await checkLedger(api.db, merchant.id)).toEqual([]);
    // A new bank account pays failed payouts again once verified; not a refused instant one (its money never left).
    await patch("/v1/account", { settings: { new_bank_account_hold_days: 0 } });
    await changeBankAccount(
      api.db,
      merchant.id,
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
      () => quote(merchant),
      (q) => q.unavailable_reason === null,
      30_000,
      "the new bank account verified (payouts no longer held)",
    );
    expect((await get(`/v1/payouts?merchant_id=${merchant.id}`)).json.data).toHaveLength(3);
    expect(await checkLedger(api.db, merchant.id)).toEqual([]);

    await patch("/v1/account", { settings: { instant_payout_fallback: "return", new_bank_account_hold_days: 3 } });
  }, 90_000);

  test("instant_eligible is read-only: a merchant sent back as it was read is not refused, and it is never stored", async () => {
    const lead = (await post("/v1/merchants", { phone: "+14155550100", merchant: application() })).json;
    const bank = lead.merchant.bank_account;
    expect(bank.instant_eligible).toBe(true);
    const back = await patch(`/v1/merchants/${lead.id}`, {
      merchant: { bank_account: { ...bank, routing_number: "110000000", instant_eligible: true } },
    });
    expect(back.status, back.text).toBe(200);
    expect(back.json.merchant.bank_account.instant_eligible).toBe(false);
    const [row] = await api.db.select().from(merchants).where(eq(merchants.id, lead.id));
    expect(JSON.stringify(row!.application)).not.toContain("instant_eligible");
  }, 90_000);

  test("a bank the rail cannot reach, and the daily limit", async () => {
    const unreachable = await fundedMerchant({ routing_number: "110000000" });
    expect((await get(`/v1/merchants/${unreachable.id}`)).json.merchant.bank_account.instant_eligible).toBe(false);
    expect((await quote(unreachable)).unavailable_reason).toBe(
      "The bank account's bank cannot receive instant payments (RTP or FedNow), and no debit card is added for instant payouts",
    );
    await patch("/v1/account", { settings: { instant_payout_daily_limit: 3_000 } });
    const merchant = await fundedMerchant();
    expect(await quote(merchant)).toMatchObject({ available: 3_000, limit_remaining_today: 3_000 });
    expect(
      (await post("/v1/payouts", { merchant_id: merchant.id, method: "instant", amount: 3_001 })).json.error.code,
    ).toBe("insufficient_funds");
    expect((await post("/v1/payouts", { merchant_id: merchant.id, method: "instant", amount: 3_000 })).status).toBe(
      200,
    );
    expect(await quote(merchant)).toMatchObject({
      available: 0,
      limit_remaining_today: 0,
      unavailable_reason: "Today's limit of $30.00 in instant payouts is reached",
    });
    await patch("/v1/account", { settings: { instant_payout_daily_limit: 1_000_000 } });
  }, 90_000);
});
