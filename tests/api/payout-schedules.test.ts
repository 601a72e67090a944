import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";

import { atTime } from "@/lib/clock-scope";
import { accounts, merchants } from "@/lib/db/schema";
import { changeScheduleFromHome } from "@/lib/domain/home/payouts";
import { advancePayout } from "@/lib/domain/payouts/advance-payout";
import { checkLedger } from "@/lib/ledger/check";

import { startTestApi, type TestApi } from "../helpers/api";
import { payNow, runDay as runDayOf } from "../helpers/money-days";
import { approvedMerchant } from "../helpers/payments";
import { until } from "../helpers/until";

// Payout schedules and manual payouts (docs/reference.md section 20), on fixed days to come: the
// day's settlement and payout run are run as the daily job runs them, at 00:00:05 UTC of that day
// (lib/clock-scope.ts atTime), and the payments are made before it. A payout made on such a day has
// its send job queued for that day (to come), so the test sends it when it says; a manual payout,
// made now, is sent by the worker now. Fees: flat rate 2.90 % + $0.30: 100.00 → 3.20 · 50.00 → 1.75 · 200.00 → 6.10.

let api: TestApi;
let isv: Awaited<ReturnType<TestApi["newIsv"]>>;
let other: Awaited<ReturnType<TestApi["newIsv"]>>;

beforeAll(async () => {
  api = await startTestApi({ worker: true });
  isv = await api.newIsv("Schedules ISV");
  other = await api.newIsv("Other ISV");
}, 120_000);
afterAll(() => api.close());

type Merchant = Awaited<ReturnType<typeof approvedMerchant>>;
const post = (path: string, body?: unknown, auth = isv.auth) => api.call("POST", path, { auth, body });
const get = (path: string, auth = isv.auth) => api.call("GET", path, { auth });
const patch = (path: string, body: unknown, auth = isv.auth) => api.call("PATCH", path, { auth, body });

const pay = (merchant: Merchant, amount: number) => payNow(api, isv, merchant, amount);
/** The day's settlement and payout run for one merchant, as the job runs them at 00:00 UTC of `day`. */
const runDay = (merchant: Merchant, day: string) => runDayOf(api, merchant.id, day);

const payoutsOf = async (merchant: Merchant) =>
  (await get(`/v1/payouts?merchant_id=${merchant.id}&limit=100`)).json.data as Record<string, any>[];
const balanceOf = async (merchant: Merchant) => (await get(`/v1/balance?merchant_id=${merchant.id}`)).json;
const linesOf = async (payoutId: string) =>
  (await get(`/v1/balance_transactions?payout=${payoutId}&limit=100`)).json.data as Record<string, any>[];

describe("a schedule is changed whole or not at all", () => {
  test("PATCH payout_schedule: every problem named, nothing changed by a refusal; a good change shown on the merchant", async () => {
    const merchant = await approvedMerchant(api, isv);
    const url = `/v1/merchants/${merchant.id}`;
    expect((await get(url)).json.payout_schedule).toEqual({
      interval: "daily",
      weekly_anchor: null,
      monthly_anchor: null,
      delay_days: 1,
      minimum_amount: 0,
    });
    const refused = await patch(url, { payout_schedule: { interval: "weekly", monthly_anchor: 3, delay_days: 8 } });
    expect(refused.status).toBe(400);
    expect(refused.json.error.errors.map((e: { param: string }) => e.param).sort()).toEqual([
      "payout_schedule.delay_days",
    ]);
    const anchors = await patch(url, { payout_schedule: { interval: "weekly", monthly_anchor: 3 } });
    expect(anchors.status).toBe(400);
    expect(anchors.json.error.errors.map((e: { param: string; code: string }) => `${e.param} ${e.code}`)).toEqual([
      "payout_schedule.weekly_anchor parameter_missing",
      "payout_schedule.monthly_anchor parameter_not_allowed",
    ]);
    for (const bad of [
      { interval: "yearly" },
      { monthly_anchor: 32 },
      { minimum_amount: -1 },
      { minimum_amount: 10.5 },
      { delay_days: 0 },
      { weekly_anchor: "saturday" },
      { surprise: true },
    ])
      expect((await patch(url, { payout_schedule: bad })).status, JSON.stringify(bad)).toBe(400);
    expect((await get(url)).json.payout_schedule.interval).toBe("daily");

    const changed = await patch(url, {
      payout_schedule: { interval: "monthly", monthly_anchor: 31, delay_days: 3, minimum_amount: 5_000 },
    });
    expect(changed.status, changed.text).toBe(200);
    expect(changed.json.payout_schedule).toEqual({
      interval: "monthly",
      weekly_anchor: null,
      monthly_anchor: 31,
      delay_days: 3,
      minimum_amount: 5_000,
    });
    // Only the minimum: the rest is kept.
    expect((await patch(url, { payout_schedule: { minimum_amount: 0 } })).json.payout_schedule).toMatchObject({
      interval: "monthly",
      monthly_anchor: 31,
      delay_days: 3,
      minimum_amount: 0,
    });
    const events = (await get("/v1/events?limit=20")).json.data as { type: string; data: { object: { id: string } } }[];
    expect(events.find((e) => e.type === "merchant.updated" && e.data.object.id === merchant.id)).toBeDefined();
    // Another ISV's merchant is not found.
    expect((await patch(url, { payout_schedule: { interval: "manual" } }, other.auth)).status).toBe(404);
    expect((await get(url)).json.payout_schedule.interval).toBe("monthly");
  }, 90_000);
});

describe("payouts on the schedule's days", () => {
  test("weekly on Wednesday, 2 days' delay: Monday's and Tuesday's settlements wait and go together; the lines are both days'", async () => {
    const merchant = await approvedMerchant(api, isv);
    await patch(`/v1/merchants/${merchant.id}`, {
      payout_schedule: { interval: "weekly", weekly_anchor: "wednesday", delay_days: 2 },
    });
    await pay(merchant, 10_000);
    const [monday] = await runDay(merchant, "2027-03-01");
    expect(monday).toMatchObject({ net: 9_680, carriedIn: 0 });
    expect(await payoutsOf(merchant)).toEqual([]);
    await pay(merchant, 5_000);
    const [tuesday] = await runDay(merchant, "2027-03-02");
    // The money waiting for Wednesday is not a debt carried in.
    expect(tuesday).toMatchObject({ net: 4_825, carriedIn: 0 });
    expect(await payoutsOf(merchant)).toEqual([]);
    expect(await balanceOf(merchant)).toMatchObject({ available: 14_505, pending: 0 });

    // Wednesday: nothing to settle, and the payout run pays both days out.
    expect(await runDay(merchant, "2027-03-03")).toEqual([]);
    const [payout] = await payoutsOf(merchant);
    expect(payout).toMatchObject({ amount: 14_505, settlement_id: null, automatic: true, status: "pending" });
    const lines = await linesOf(payout!.id);
    expect(lines.map((l) => l.type).sort()).toEqual(["charge", "charge"]);
    expect(lines.reduce((sum, l) => sum + l.net, 0)).toBe(14_505);
    // Sent on Wednesday, it arrives two business days later.
    const sent = await atTime(new Date("2027-03-03T00:01:00Z"), () => advancePayout(api.db, payout!.id));
    expect(sent).toMatchObject({ status: "in_transit", arrivalDate: "2027-03-05" });
    expect(await checkLedger(api.db, merchant.id)).toEqual([]);
    // The bank's answer: both days' settlements say their payout was paid.
    const settlementStatus = async () =>
      ((await get(`/v1/settlements?merchant_id=${merchant.id}`)).json.data as { payout_status: string }[]).map(
        (s) => s.payout_status,
      );
    expect(await settlementStatus()).toEqual(["scheduled", "scheduled"]);
    await atTime(new Date("2027-03-05T00:00:05Z"), () => advancePayout(api.db, payout!.id));
    expect(await settlementStatus()).toEqual(["paid", "paid"]);
    // Thursday: nothing more.
    expect(await runDay(merchant, "2027-03-04")).toEqual([]);
    expect(await payoutsOf(merchant)).toHaveLength(1);
  }, 90_000);

  test("monthly on the 31st: January 2027's falls on Sunday, so Friday the 29th pays; Thursday does not", async () => {
    const merchant = await approvedMerchant(api, isv);
    await patch(`/v1/merchants/${merchant.id}`, { payout_schedule: { interval: "monthly", monthly_anchor: 31 } });
    await pay(merchant, 20_000);
    await runDay(merchant, "2027-01-28");
    expect(await payoutsOf(merchant)).toEqual([]);
    await pay(merchant, 10_000);
    const [friday] = await runDay(merchant, "2027-01-29");
    const payouts = await payoutsOf(merchant);
    expect(payouts).toHaveLength(1);
    // The day's settlement made it, and it pays the month's: 200.00 − 6.10 + 100.00 − 3.20.
    expect(payouts[0]).toMatchObject({ amount: 19_390 + 9_680, settlement_id: friday!.id });
    // Sent on Friday the 29th, it arrives Monday, February 1st.
    const sent = await atTime(new Date("2027-01-29T00:01:00Z"), () => advancePayout(api.db, payouts[0]!.id));
    expect(sent?.arrivalDate).toBe("2027-02-01");
  }, 90_000);

  test("a daily schedule's minimum: a balance below it waits for a day it is reached", async () => {
    const merchant = await approvedMerchant(api, isv);
    await patch(`/v1/merchants/${merchant.id}`, { payout_schedule: { minimum_amount: 20_000 } });
    await pay(merchant, 10_000);
    await runDay(merchant, "2027-04-05");
    expect(await payoutsOf(merchant)).toEqual([]);
    await pay(merchant, 10_000);
    await runDay(merchant, "2027-04-06");
    expect(await payoutsOf(merchant)).toEqual([]);
    await pay(merchant, 5_000);
    await runDay(merchant, "2027-04-07");
    const [payout] = await payoutsOf(merchant);
    expect(payout).toMatchObject({ amount: 9_680 * 2 + 4_825 });
    expect((await linesOf(payout!.id)).map((l) => l.type)).toEqual(["charge", "charge", "charge"]);
  }, 90_000);
});

describe("manual payouts", () => {
  test("paid out of what is available, never more; the next automatic payout's lines count them", async () => {
    const merchant = await approvedMerchant(api, isv);
    await patch(`/v1/merchants/${merchant.id}`, { payout_schedule: { interval: "manual" } });
    await pay(merchant, 10_000);
    await runDay(merchant, "2027-05-03");
    expect(await payoutsOf(merchant)).toEqual([]);
    expect(await balanceOf(merchant)).toMatchObject({ available: 9_680 });

    const first = await post("/v1/payouts", { merchant_id: merchant.id, amount: 3_000 });
    expect(first.status, first.text).toBe(200);
    expect(first.json).toMatchObject({
      object: "payout",
      merchant_id: merchant.id,
      settlement_id: null,
      automatic: false,
      method: "standard",
      amount: 3_000,
      status: "pending",
    });
    // More than is left: refused in words, nothing made.
    const tooMuch = await post("/v1/payouts", { merchant_id: merchant.id, amount: 6_681 });
    expect(tooMuch.status).toBe(400);
    expect(tooMuch.json.error).toMatchObject({ code: "insufficient_funds", param: "amount" });
    expect(tooMuch.json.error.message).toContain("$66.80");
    expect(await payoutsOf(merchant)).toHaveLength(1);
    // Without an amount: all that is left.
    const rest = await post("/v1/payouts", { merchant_id: merchant.id });
    expect(rest.json).toMatchObject({ amount: 6_680, automatic: false });
    const none = await post("/v1/payouts", { merchant_id: merchant.id });
    expect(none.status).toBe(400);
    expect(none.json.error.code).toBe("insufficient_funds");
    expect(await checkLedger(api.db, merchant.id)).toEqual([]);
    for (const id of [first.json.id, rest.json.id])
      await until(
        async () => (await get(`/v1/payouts/${id}`)).json.status,
        (status) => status === "in_transit",
        20_000,
        "the manual payout sent by the worker",
      );
    expect(await balanceOf(merchant)).toMatchObject({ available: 0 });
    // A manual payout has no lines: asked for by its id, the ledger shows its own transaction alone.
    expect((await linesOf(first.json.id)).map((l) => `${l.type} ${l.net}`)).toEqual(["payout -3000"]);
    expect(await checkLedger(api.db, merchant.id)).toEqual([]);

    // Back to daily: the next payout pays the new day's charge, and its lines (the first charge and the
    // two manual payouts' own transactions among them) add up to it.
    await patch(`/v1/merchants/${merchant.id}`, { payout_schedule: { interval: "daily" } });
    await pay(merchant, 5_000);
    await runDay(merchant, "2027-05-04");
    const automatic = (await payoutsOf(merchant)).find((p) => p.automatic)!;
    expect(automatic).toMatchObject({ amount: 4_825 });
    const lines = await linesOf(automatic.id);
    expect(lines.map((l) => `${l.type} ${l.net}`).sort()).toEqual([
      "charge 4825",
      "charge 9680",
      "payout -3000",
      "payout -6680",
    ]);
  }, 90_000);

  test("two at once never pay out more than is available (a race on PostgreSQL)", async () => {
    const merchant = await approvedMerchant(api, isv);
    await patch(`/v1/merchants/${merchant.id}`, { payout_schedule: { interval: "manual" } });
    await pay(merchant, 10_000);
    await runDay(merchant, "2027-05-10");
    const both = await Promise.all(
      [0, 1, 2, 3].map(() => post("/v1/payouts", { merchant_id: merchant.id, amount: 4_000 })),
    );
    expect(both.map((r) => r.status).sort()).toEqual([200, 200, 400, 400]);
    expect((await payoutsOf(merchant)).reduce((sum, p) => sum + p.amount, 0)).toBe(8_000);
    expect(await checkLedger(api.db, merchant.id)).toEqual([]);
  }, 90_000);

  test("refused while payouts are held, for a merchant not approved, and for another ISV's merchant", async () => {
    const merchant = await approvedMerchant(api, isv);
    await pay(merchant, 10_000);
    await patch(`/v1/merchants/${merchant.id}`, { automatic_payouts: false, payout_schedule: { interval: "manual" } });
    await runDay(merchant, "2027-05-17");
    const held = await post("/v1/payouts", { merchant_id: merchant.id, amount: 1_000 });
    expect(held.status).toBe(409);
    expect(held.json.error).toMatchObject({ code: "payouts_held" });
    expect(held.json.error.message).toContain("automatic_payouts_off");
    expect((await post("/v1/payouts", { merchant_id: merchant.id, amount: 1_000 }, other.auth)).status).toBe(404);
    expect((await post("/v1/payouts", { amount: 1_000 })).json.error.code).toBe("parameter_missing");
    expect((await post("/v1/payouts", { merchant_id: merchant.id, amount: 0 })).status).toBe(400);
    expect((await post("/v1/payouts", { merchant_id: merchant.id, amount: 1_000, method: "wire" })).status).toBe(400);
    const lead = (await post("/v1/merchants", { phone: "+14155550100" })).json;
    expect((await post("/v1/payouts", { merchant_id: lead.id, amount: 1_000 })).json.error.code).toBe(
      "merchant_not_approved",
    );
    expect(await payoutsOf(merchant)).toEqual([]);
  }, 90_000);
});

describe("the home's schedule form", () => {
  test("the merchant changes its own schedule only when its ISV allows it; a refusal changes nothing", async () => {
    const merchant = await approvedMerchant(api, isv);
    const rowOf = async () => (await api.db.select().from(merchants).where(eq(merchants.id, merchant.id)))[0]!;
    const isvRow = async () => (await api.db.select().from(accounts).where(eq(accounts.id, isv.account_id)))[0]!;
    await expect(
      changeScheduleFromHome(api.db, await rowOf(), await isvRow(), { interval: "manual" }),
    ).rejects.toMatchObject({ code: "permission_denied" });
    expect((await get(`/v1/merchants/${merchant.id}`)).json.payout_schedule.interval).toBe("daily");
    const allowed = await patch("/v1/account", { settings: { merchant_can_change_schedule: true } });
    expect(allowed.json.settings.merchant_can_change_schedule).toBe(true);
    await changeScheduleFromHome(api.db, await rowOf(), await isvRow(), { interval: "manual" });
    expect((await get(`/v1/merchants/${merchant.id}`)).json.payout_schedule.interval).toBe("manual");
    await patch("/v1/account", { settings: { merchant_can_change_schedule: false } });
  }, 90_000);
});
