import { eq } from "drizzle-orm";
import { afterAll, beforeAll, expect, test } from "vitest";

import { merchants } from "@/lib/db/schema";
import { homeOverview } from "@/lib/domain/home/overview";
import { applyAchMove } from "@/lib/domain/settlements/ach-returns";
import { checkLedger } from "@/lib/ledger/check";

import { startTestApi, type TestApi } from "../helpers/api";
import { postingsAt } from "../helpers/ledger";
import { approvedMerchant, payRequest, tokenize } from "../helpers/payments";
import { until } from "../helpers/until";

// The home's figures a newcomer found wrong (issue 49): "Today" and "This month" counted an ACH
// payment its bank returned, and "Next settlement" said nothing of a negative settlement waiting to
// be taken from it.

let api: TestApi;
let isv: Awaited<ReturnType<TestApi["newIsv"]>>;

beforeAll(async () => {
  api = await startTestApi({ worker: true });
  isv = await api.newIsv("Home figures ISV");
}, 120_000);
afterAll(() => api.close());

const post = (path: string, body?: unknown) => api.call("POST", path, { auth: isv.auth, body });

test("a returned debit is not in today's or the month's figures; the next settlement says what it still takes from the last", async () => {
  const merchant = await approvedMerchant(api, isv);
  const card = (await post("/v1/scan_to_pay", { merchant_id: merchant.id, amount: 10_000 })).json;
  const cardPaid = await api.call("POST", `/v1/payment_requests/${card.id}/pay`, {
    body: { token: await tokenize(api, merchant.publishableKey) },
  });
  const invoice = (await post("/v1/invoice", { merchant_id: merchant.id, amount: 30_000, sendVia: "none" })).json;
  const token = (
    await api.call("POST", "/v1/tokens", {
      auth: `Bearer ${merchant.publishableKey}`,
      body: {
        bank_account: {
          routing_number: "021000021",
          account_number: "000222222227",
          account_holder_name: "Ana Ruiz",
          account_type: "checking",
        },
      },
    })
  ).json.id;
  const debit = await api.call("POST", `/v1/payment_requests/${invoice.id}/pay`, {
    body: { token, ach_authorization: { accepted: true } },
  });
  const row = async () => (await api.db.select().from(merchants).where(eq(merchants.id, merchant.id)))[0]!;
  expect((await homeOverview(api.db, await row())).today).toEqual({ amount: 40_000, count: 2 });
  await post("/v1/test_helpers/settlement/run", { merchant_id: merchant.id });
  await until(
    async () => (await api.call("GET", `/v1/charges/${debit.json.charge.id}`, { auth: isv.auth })).json.status,
    (s) => s === "RETURNED",
    20_000,
    "the return",
  );
  const afterReturn = await homeOverview(api.db, await row());
  expect(afterReturn.today).toEqual({ amount: 10_000, count: 1 });
  expect(afterReturn.month).toEqual({ amount: 10_000, count: 1 });
  // The next settlement, read from the ledger's postings no settlement took: the return, no payment.
  expect(afterReturn.nextSettlement).toMatchObject({ amount: -30_000, count: 0, disputes: 0, carried: 0 });
  // A refund of the card payment (already settled): today's net volume and the next settlement say it.
  expect((await post("/v1/refunds", { charge_id: cardPaid.json.charge.id, amount: 2_500 })).status).toBe(200);
  const afterRefund = await homeOverview(api.db, await row());
  expect(afterRefund.today).toEqual({ amount: 7_500, count: 1 });
  expect(afterRefund.nextSettlement).toMatchObject({ amount: -32_500, count: 0 });
  // The next settlement takes the return and the refund back: negative, carried into the one after.
  const second = (await post("/v1/test_helpers/settlement/run", { merchant_id: merchant.id })).json.data[0];
  expect(second.net).toBe(-32_500);
  const carried = await homeOverview(api.db, await row());
  expect(carried.nextSettlement).toMatchObject({ amount: 0, count: 0, carried: -32_500 });
  // The bank reverses its return after the settlement took it: the next settlement pays the debit back.
  expect(
    await applyAchMove(api.db, debit.json.charge.id, "reverseReturn", {
      returnReversedAt: new Date(),
      failureReason: null,
      achClearedAt: new Date(),
    }),
  ).toBeTruthy();
  const reversed = await homeOverview(api.db, await row());
  expect(reversed.nextSettlement).toMatchObject({ amount: 30_000, count: 0, carried: -32_500 });
  expect(await checkLedger(api.db)).toEqual([]);
}, 90_000);

test("the home's periods at their edges, the next settlement counts only what no settlement took, the next payout is the oldest waiting", async () => {
  const merchant = await approvedMerchant(api, isv);
  const row = async () => (await api.db.select().from(merchants).where(eq(merchants.id, merchant.id)))[0]!;
  const paid = async (amount: number) => {
    const res = await payRequest(api, isv, merchant, amount);
    expect(res.status).toBe(200);
    return res.json.charge.id as string;
  };
  // Written (as the ledger sees it) at the edges of 16 April 2026, a Thursday: the month's and the day's.
  const at = async (id: string, iso: string) => postingsAt(api.db, [id], ["charge"], new Date(iso));
  await at(await paid(1_000), "2026-03-31T23:59:59.999Z"); // last month
  await at(await paid(2_000), "2026-04-01T00:00:00.000Z"); // this month's first instant
  await at(await paid(4_000), "2026-04-15T23:59:59.999Z"); // yesterday's last instant
  const today = await paid(8_000);
  await at(today, "2026-04-16T00:00:00.000Z"); // today's first instant
  const refund = (await post("/v1/refunds", { charge_id: today, amount: 500 })).json.id as string;
  await postingsAt(api.db, [refund], ["refund"], new Date("2026-04-16T10:00:00.000Z"));
  const now = new Date("2026-04-16T12:00:00.000Z");
  const overview = await homeOverview(api.db, await row(), now);
  expect(overview.today).toEqual({ amount: 8_000 - 500, count: 1 });
  expect(overview.month).toEqual({ amount: 2_000 + 4_000 + 8_000 - 500, count: 3 });
  // Nothing settled yet: the next settlement takes all four payments and the refund.
  expect(overview.nextSettlement).toMatchObject({ amount: 15_000 - 500, count: 4, carried: 0 });

  // Settled: the next settlement has nothing; a new payment is all it takes.
  const first = (await post("/v1/test_helpers/settlement/run", { merchant_id: merchant.id })).json.data[0];
  expect((await homeOverview(api.db, await row())).nextSettlement).toMatchObject({ amount: 0, count: 0 });
  await paid(3_000);
  expect((await homeOverview(api.db, await row())).nextSettlement).toMatchObject({ amount: 3_000, count: 1 });
  const second = (await post("/v1/test_helpers/settlement/run", { merchant_id: merchant.id })).json.data[0];
  // Two payouts waiting for their banks: the next payout is the older one.
  const payouts = (await api.call("GET", `/v1/payouts?merchant_id=${merchant.id}`, { auth: isv.auth })).json.data as {
    id: string;
    settlement_id: string;
  }[];
  expect(payouts.map((p) => p.settlement_id).sort()).toEqual([first.id, second.id].sort());
  const next = (await homeOverview(api.db, await row())).nextPayout;
  expect(next?.settlementId).toBe(first.id);
  expect(await checkLedger(api.db, merchant.id)).toEqual([]);
}, 90_000);
