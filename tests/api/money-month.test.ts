import { afterAll, beforeAll, describe, expect, test } from "vitest";

import { changeBankAccount } from "@/lib/domain/home/settings";
import { checkLedger } from "@/lib/ledger/check";
import { SANDBOX_DISPUTED_CARD } from "@/lib/processors/sandbox";

import { startTestApi, type TestApi } from "../helpers/api";
import { freshHomeSession } from "../helpers/fixtures";
import { approvedMerchant, tokenize } from "../helpers/payments";
import { until } from "../helpers/until";

// A month of mixed activity for one merchant (docs/reference.md sections 13 and 16), through the API
// with the server's own worker: cards, a bank payment the customer's bank returns, refunds before a
// dispute and after a settlement, a dispute won and one lost, a payout the bank refuses and its
// retry after a new bank account. Every settlement and every payout is held to figures worked by
// hand, and what reached the merchant's bank equals what it took less what went back, to the cent.
//
// Fees: cards flat rate 2.90 % + $0.30 (half up): 100.00 → 3.20 · 50.00 → 1.75 · 30.00 → 1.17 ·
// 200.00 → 6.10 · 300.00 → 9.00; bank payments 0.50 % + $0.25: 40.00 → 0.45. Dispute fee $15.00.

let api: TestApi;
let isv: Awaited<ReturnType<TestApi["newIsv"]>>;

beforeAll(async () => {
  api = await startTestApi({ worker: true });
  isv = await api.newIsv("Money Month ISV");
  // A new bank account pays as soon as it is verified here (the cooling-off is tested in home-security).
  await api.call("PATCH", "/v1/account", { auth: isv.auth, body: { settings: { new_bank_account_hold_days: 0 } } });
}, 120_000);
afterAll(() => api.close());

const post = (path: string, body?: unknown) => api.call("POST", path, { auth: isv.auth, body });
const get = (path: string) => api.call("GET", path, { auth: isv.auth });

describe("a month of mixed activity", () => {
  test("every settlement and payout adds up to the cent, whatever the order of events", async () => {
    // Its bank account is closed: the first payout is refused.
    const merchant = await approvedMerchant(api, isv, (application) => {
      application.bank_account.account_number = "000555555550";
      application.bank_account.account_number_confirm = "000555555550";
    });
    const card = async (amount: number, number = "4242424242424242") => {
      const pr = (await post("/v1/scan_to_pay", { merchant_id: merchant.id, amount })).json;
      const res = await api.call("POST", `/v1/payment_requests/${pr.id}/pay`, {
        body: { token: await tokenize(api, merchant.publishableKey, number) },
      });
      expect(res.json.charge.status).toBe("AUTHORIZED");
      return res.json.charge.id as string;
    };
    const bank = async (amount: number, account: string) => {
      const pr = (await post("/v1/invoice", { merchant_id: merchant.id, amount, sendVia: "none" })).json;
      const token = (
        await api.call("POST", "/v1/tokens", {
          auth: `Bearer ${merchant.publishableKey}`,
          body: {
            bank_account: {
              routing_number: "021000021",
              account_number: account,
              account_holder_name: "Ana Ruiz",
              account_type: "checking",
            },
          },
        })
      ).json.id;
      const res = await api.call("POST", `/v1/payment_requests/${pr.id}/pay`, {
        body: { token, ach_authorization: { accepted: true } },
      });
      expect(res.json.charge.status).toBe("AUTHORIZED");
      return res.json.charge.id as string;
    };
    const settle = async () => {
      const run = await post("/v1/test_helpers/settlement/run", { merchant_id: merchant.id });
      expect(run.status).toBe(200);
      return run.json.data[0] as Record<string, any>;
    };
    const payouts = async () =>
      (await get(`/v1/payouts?merchant_id=${merchant.id}&limit=100`)).json.data as Record<string, any>[];
    const payoutOf = async (settlementId: string) =>
      (await payouts()).find((p) => p.settlement_id === settlementId && p.replaces === null)!;
    const sent = (id: string) =>
      until(
        async () => (await get(`/v1/payouts/${id}`)).json.status as string,
        (s) => s === "in_transit",
        20_000,
        `payout ${id} sent`,
      );
    const disputeOf = async (chargeId: string) =>
      (
        await until(
          async () => (await get(`/v1/disputes?charge_id=${chargeId}`)).json.data as Record<string, any>[],
          (rows) => rows.length === 1,
          20_000,
          `the dispute of ${chargeId}`,
        )
      )[0]!;

    // Night 1: three cards (two of them the disputed card), a bank payment its bank will return;
    // refunds before any dispute: 25.00 of the first card, 10.00 of the first disputed one.
    const a = await card(10_000);
    const won = await card(5_000, SANDBOX_DISPUTED_CARD);
    const lost = await card(3_000, SANDBOX_DISPUTED_CARD);
    const returned = await bank(4_000, "000222222227");
    expect((await post("/v1/refunds", { charge_id: a, amount: 2_500 })).status).toBe(200);
    expect((await post("/v1/refunds", { charge_id: won, amount: 1_000 })).status).toBe(200);
    const s1 = await settle();
    expect(s1).toMatchObject({
      charge_count: 4,
      gross: 22_000,
      refund_count: 2,
      refunds: 3_500,
      fees: 320 + 175 + 117 + 45,
      returns: 0,
      disputes: 0,
      carried_in: 0,
      net: 22_000 - 3_500 - 657,
    });
    // Its payout is sent, then refused by the bank: the merchant is asked for a new account.
    const p1 = await payoutOf(s1.id);
    expect(p1.amount).toBe(17_843);
    await sent(p1.id);
    expect((await post(`/v1/test_helpers/payouts/${p1.id}/advance`)).json).toMatchObject({
      status: "failed",
      failure_code: "account_closed",
    });
    // After the settlement: the card processor reports the disputes, the bank returns its debit.
    const d1 = await disputeOf(won);
    const d2 = await disputeOf(lost);
    expect([d1.amount, d1.fee, d2.amount, d2.fee]).toEqual([4_000, 1_500, 3_000, 1_500]);
    await until(
      async () => (await get(`/v1/charges/${returned}`)).json.status as string,
      (s) => s === "RETURNED",
      20_000,
      "the ACH return",
    );
    // The merchant gives the smaller one up.
    expect((await post(`/v1/disputes/${d2.id}/accept`)).json.status).toBe("lost");

    // Night 2: 200.00 by card; the return and both disputes (with their fees) are taken. Its
    // payout waits: the bank account that refused the first one has not been replaced.
    const b = await card(20_000);
    const s2 = await settle();
    expect(s2).toMatchObject({
      gross: 20_000,
      fees: 610,
      return_count: 1,
      returns: 4_000,
      dispute_count: 2,
      disputes: 7_000,
      dispute_fees: 3_000,
      dispute_won_count: 0,
      carried_in: 0,
      net: 20_000 - 610 - 4_000 - 7_000 - 3_000,
      payout_status: "held",
    });
    const p2 = await payoutOf(s2.id);
    expect(p2).toMatchObject({ amount: 5_390, status: "held", held_reason: "payout_failed" });

    // The first dispute is answered and won; the customer of the 200.00 is refunded in full.
    expect(
      (await post(`/v1/disputes/${d1.id}`, { evidence: { uncategorized_text: "winning_evidence" }, submit: true })).json
        .status,
    ).toBe("under_review");
    await until(
      async () => (await get(`/v1/disputes/${d1.id}`)).json.status as string,
      (s) => s === "won",
      20_000,
      "the dispute won",
    );
    expect((await post("/v1/refunds", { charge_id: b })).json.amount).toBe(20_000);

    // A new bank account, verified: the held payout goes, and what was refused is paid again.
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
    const retry = await until(
      async () => (await payouts()).find((p) => p.replaces === p1.id),
      (p) => p !== undefined,
      20_000,
      "the replacement of the refused payout",
    );
    expect(retry).toMatchObject({ amount: 17_843, settlement_id: s1.id });
    for (const p of [retry!, p2]) {
      await sent(p.id);
      expect((await post(`/v1/test_helpers/payouts/${p.id}/advance`)).json).toMatchObject({
        status: "paid",
        bank_account: { last4: "4321" },
      });
    }

    // Night 3: the refund of 200.00 less the won dispute's 40.00 coming back: negative, carried.
    const s3 = await settle();
    expect(s3).toMatchObject({
      gross: 0,
      refunds: 20_000,
      disputes: 0,
      dispute_won_count: 1,
      disputes_won: 4_000,
      carried_in: 0,
      net: -16_000,
    });
    expect(await payouts()).toHaveLength(3);

    // Night 4: 300.00 by card pays what was carried, and the rest is paid out.
    await card(30_000);
    const s4 = await settle();
    expect(s4).toMatchObject({ gross: 30_000, fees: 900, carried_in: -16_000, net: 13_100 });
    const p4 = await payoutOf(s4.id);
    expect(p4.amount).toBe(13_100);
    await sent(p4.id);
    await post(`/v1/test_helpers/payouts/${p4.id}/advance`);

    // What reached the bank: what the customers paid, less refunds, fees, the return, the lost
    // dispute and both dispute fees (the won dispute's amount came back).
    const paid = (await payouts()).filter((p) => p.status === "paid").reduce((sum, p) => sum + p.amount, 0);
    const took = 22_000 + 20_000 + 30_000;
    expect(paid).toBe(took - 23_500 - (657 + 610 + 900) - 4_000 - 3_000 - 3_000);
    expect(paid).toBe(17_843 + 5_390 + 13_100);
    // And every settlement's net is its own lines' sum, to the cent.
    for (const s of [s1, s2, s3, s4])
      expect(s.net).toBe(
        s.gross -
          s.refunds -
          s.returns +
          s.reversals -
          s.fees -
          s.disputes -
          s.dispute_fees +
          s.disputes_won +
          s.carried_in,
      );
  }, 180_000);
});

test("the ledger's invariants hold after every test above (docs/reference.md section 18)", async () => {
  expect(await checkLedger(api.db)).toEqual([]);
});
