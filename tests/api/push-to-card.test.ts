import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";

import { merchants, outbox } from "@/lib/db/schema";
import { rotateApiKey } from "@/lib/domain/accounts/rotate-api-key";
import { reportChange } from "@/lib/domain/home/change-notices";
import { settleAll } from "@/lib/domain/settlements/run-settlement";
import { checkLedger } from "@/lib/ledger/check";
import { businessDaysAfter, isoDay } from "@/lib/payouts/business-days";
import { SANDBOX_PUSH_REFUSED_CARD } from "@/lib/processors/sandbox";

import { startTestApi, type TestApi } from "../helpers/api";
import { approvedMerchant, tokenize } from "../helpers/payments";
import { until } from "../helpers/until";

// Instant payouts by push to card (docs/reference.md section 20): the merchant's debit card, from a
// token of its tokenizer frame; a credit or prepaid card refused in words; the card's cooling-off;
// the rail chosen (RTP first) or asked; a push the card's bank refuses gives the money back; the
// "this wasn't me" link removes the card. Fees: 100.00 → 3.20, so 96.80 available; instant 1 %.

const DEBIT = "4000056655665556";
const PREPAID = "5105105105105100";

let api: TestApi;
let isv: Awaited<ReturnType<TestApi["newIsv"]>>;
beforeAll(async () => {
  api = await startTestApi({ worker: true });
  isv = await api.newIsv("Push ISV");
  await api.call("PATCH", "/v1/account", {
    auth: isv.auth,
    body: { settings: { instant_payouts_enabled: true, new_bank_account_hold_days: 0 } },
  });
}, 120_000);
afterAll(() => api.close());

type Merchant = Awaited<ReturnType<typeof approvedMerchant>>;
const post = (path: string, body?: unknown) => api.call("POST", path, { auth: isv.auth, body });
const get = (path: string) => api.call("GET", path, { auth: isv.auth });
const quote = async (m: Merchant, more = "") =>
  (await get(`/v1/payouts/instant_quote?merchant_id=${m.id}${more}`)).json;
const available = async (m: Merchant) => (await get(`/v1/balance?merchant_id=${m.id}`)).json.available;
const addCard = async (m: Merchant, number: string) =>
  post(`/v1/merchants/${m.id}/payout_card`, { token: await tokenize(api, m.publishableKey, number) });

/** An approved merchant paid out only when asked, with 96.80 available; its bank by `routing`. */
async function fundedMerchant(routing: string) {
  const merchant = await approvedMerchant(api, isv, (app) =>
    Object.assign(app.bank_account, { routing_number: routing }),
  );
  await api.call("PATCH", `/v1/merchants/${merchant.id}`, {
    auth: isv.auth,
    body: { payout_schedule: { interval: "manual" } },
  });
  const pr = (await post("/v1/scan_to_pay", { merchant_id: merchant.id, amount: 10_000 })).json;
  await api.call("POST", `/v1/payment_requests/${pr.id}/pay`, {
    body: { token: await tokenize(api, merchant.publishableKey) },
  });
  await settleAll(api.db, new Date(Date.now() + 1), { merchantId: merchant.id });
  expect(await available(merchant)).toBe(9_680);
  return merchant;
}

describe("push to card", () => {
  test("a bank the rail cannot reach: a debit card added by the ISV is paid in seconds; credit and prepaid cards refused in words", async () => {
    const merchant = await fundedMerchant("110000000");
    expect(await quote(merchant)).toMatchObject({
      rail: null,
      rails: [],
      payout_card: null,
      unavailable_reason:
        "The bank account's bank cannot receive instant payments (RTP or FedNow), and no debit card is added for instant payouts",
    });
    const credit = await addCard(merchant, "4242424242424242");
    expect(credit.status).toBe(400);
    expect(credit.json.error).toMatchObject({
      code: "payout_card_refused",
      param: "token",
      message: "This is a credit card: instant payouts are paid to a debit card only",
    });
    expect((await addCard(merchant, PREPAID)).json.error.message).toBe(
      "Prepaid cards cannot receive payouts: add a debit card linked to a bank account",
    );
    expect((await get(`/v1/merchants/${merchant.id}/payout_card`)).status).toBe(404);
    // A merchant's own key cannot add a place for its money to go (the home asks a fresh sign-in).
    const [row] = await api.db.select().from(merchants).where(eq(merchants.id, merchant.id));
    const rotated = await rotateApiKey(api.db, row!.merchantAccountId!, false);
    const own = await api.call("POST", `/v1/merchants/${merchant.id}/payout_card`, {
      auth: `Basic ${Buffer.from(`${rotated.account_sid}:${rotated.secret_key}`).toString("base64")}`,
      body: { token: await tokenize(api, merchant.publishableKey, DEBIT) },
    });
    expect(own.status).toBe(403);

    const token = await tokenize(api, merchant.publishableKey, DEBIT);
    const added = await post(`/v1/merchants/${merchant.id}/payout_card`, { token });
    expect(added.status, added.text).toBe(200);
    expect(added.json).toMatchObject({ object: "payout_card", brand: "visa", last4: "5556", funding: "debit" });
    expect(added.json.usable_from).toBe(isoDay(new Date()));
    expect(JSON.stringify(added.json)).not.toContain(DEBIT);
    expect((await post(`/v1/merchants/${merchant.id}/payout_card`, { token })).json.error.code).toBe("token_invalid");
    const notices = await api.db
      .select()
      .from(outbox)
      .where(and(eq(outbox.merchantId, merchant.id), eq(outbox.kind, "payout_card_added")));
    expect(notices.length).toBeGreaterThan(0);
    expect(notices[0]!.text).toContain("Visa debit card ending 5556");

    // 95.84 + its fee of 0.96 (1 %) = 96.80.
    expect(await quote(merchant)).toMatchObject({
      available: 9_584,
      rail: "push_to_card",
      rails: ["push_to_card"],
      payout_card: { id: added.json.id, last4: "5556" },
      unavailable_reason: null,
    });
    expect(
      (await post("/v1/payouts", { merchant_id: merchant.id, method: "instant", rail: "rtp", amount: 100 })).json.error
        .code,
    ).toBe("instant_payout_unavailable");
    const made = await post("/v1/payouts", { merchant_id: merchant.id, method: "instant", amount: 5_000 });
    expect(made.status, made.text).toBe(200);
    expect(made.json).toMatchObject({
      rail: "push_to_card",
      card: { id: added.json.id, brand: "visa", last4: "5556" },
      fee: 50,
    });
    await until(
      async () => (await get(`/v1/payouts/${made.json.id}`)).json.status,
      (s) => s === "paid",
      30_000,
      "the push to card paid",
    );
    expect(await available(merchant)).toBe(9_680 - 5_050);
    expect(await checkLedger(api.db, merchant.id)).toEqual([]);

    const other = await api.newIsv("Other ISV");
    expect((await api.call("GET", `/v1/merchants/${merchant.id}/payout_card`, { auth: other.auth })).status).toBe(404);

    // "This wasn't me": payouts frozen and the card removed.
    const link = notices[0]!.text.match(/\/home\/report\/(\S+)/)![1]!;
    expect(await reportChange(api.db, link)).not.toBeNull();
    expect((await get(`/v1/merchants/${merchant.id}/payout_card`)).status).toBe(404);
    expect((await quote(merchant)).rail).toBeNull();
  }, 120_000);

  test("the cooling-off, RTP first or the rail asked, a push refused at sending, a card removed", async () => {
    const merchant = await fundedMerchant("021000021");
    await api.call("PATCH", "/v1/account", { auth: isv.auth, body: { settings: { new_bank_account_hold_days: 3 } } });
    const cooling = (await addCard(merchant, DEBIT)).json;
    expect(cooling.usable_from).toBe(isoDay(businessDaysAfter(new Date(), 3)));
    // The bank account is still reached; the card is not yet.
    expect(await quote(merchant)).toMatchObject({ rail: "rtp", rails: ["rtp"] });
    expect((await quote(merchant, "&rail=push_to_card")).unavailable_reason).toBe(
      `Instant payouts reach the debit card added on ${isoDay(new Date())} from ${cooling.usable_from}`,
    );
    await api.call("PATCH", "/v1/account", { auth: isv.auth, body: { settings: { new_bank_account_hold_days: 0 } } });

    const refusing = (await addCard(merchant, SANDBOX_PUSH_REFUSED_CARD)).json;
    expect((await get(`/v1/merchants/${merchant.id}/payout_card`)).json.id).toBe(refusing.id);
    expect(await quote(merchant)).toMatchObject({ rail: "rtp", rails: ["rtp", "push_to_card"] });
    const made = await post("/v1/payouts", {
      merchant_id: merchant.id,
      method: "instant",
      rail: "push_to_card",
      amount: 4_000,
    });
    expect(made.json).toMatchObject({ rail: "push_to_card", card: { id: refusing.id, last4: "6660" } });
    const failed = await until(
      async () => (await get(`/v1/payouts/${made.json.id}`)).json,
      (p) => p.status === "failed",
      30_000,
      "the refused push",
    );
    expect(failed.failure_code).toBe("instant_refused");
    expect(await available(merchant)).toBe(9_680);
    expect(await checkLedger(api.db, merchant.id)).toEqual([]);

    expect((await api.call("DELETE", `/v1/merchants/${merchant.id}/payout_card`, { auth: isv.auth })).json.status).toBe(
      "removed",
    );
    expect((await api.call("DELETE", `/v1/merchants/${merchant.id}/payout_card`, { auth: isv.auth })).status).toBe(404);
    expect((await quote(merchant, "&rail=push_to_card")).unavailable_reason).toBe(
      "No debit card is added for instant payouts",
    );
  }, 120_000);
});
