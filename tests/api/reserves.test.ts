import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";

import { runCommand } from "@/cli/commands";
import { events, merchants } from "@/lib/db/schema";
import { rotateApiKey } from "@/lib/domain/accounts/rotate-api-key";
import { checkLedger } from "@/lib/ledger/check";

import { startTestApi, type TestApi } from "../helpers/api";
import { payNow, runDay as runDayOf } from "../helpers/money-days";
import { approvedMerchant } from "../helpers/payments";

// Reserves (docs/reference.md section 20) on fixed days to come, the day's run as the daily job
// runs it (00:00:05 UTC; see payout-schedules.test.ts). Fees: 2.90 % + $0.30: 100.00 → 3.20 ·
// 50.00 → 1.75. The ledger is checked after every day.

let api: TestApi;
let isv: Awaited<ReturnType<TestApi["newIsv"]>>;
let other: Awaited<ReturnType<TestApi["newIsv"]>>;

beforeAll(async () => {
  api = await startTestApi({ worker: true });
  isv = await api.newIsv("Reserves ISV");
  other = await api.newIsv("Other ISV");
}, 120_000);
afterAll(() => api.close());

type Merchant = Awaited<ReturnType<typeof approvedMerchant>>;
const post = (path: string, body?: unknown, auth = isv.auth) => api.call("POST", path, { auth, body });
const get = (path: string, auth = isv.auth) => api.call("GET", path, { auth });
const patch = (path: string, body: unknown) => api.call("PATCH", path, { auth: isv.auth, body });

const pay = (merchant: Merchant, amount: number) => payNow(api, isv, merchant, amount);
/** The day's settlement and payout run for one merchant, as the job runs them at 00:00 UTC of `day`. */
const runDay = (merchant: Merchant, day: string) => runDayOf(api, merchant.id, day);

const payoutsOf = async (merchant: Merchant) =>
  ((await get(`/v1/payouts?merchant_id=${merchant.id}&limit=100`)).json.data as Record<string, any>[]).reverse();
const balanceOf = async (merchant: Merchant) => (await get(`/v1/balance?merchant_id=${merchant.id}`)).json;
const reservesOf = async (merchant: Merchant) =>
  (await get(`/v1/merchants/${merchant.id}/reserves`)).json.data as Record<string, any>[];
const linesOf = async (payoutId: string) =>
  ((await get(`/v1/balance_transactions?payout=${payoutId}&limit=100`)).json.data as Record<string, any>[])
    .map((l) => `${l.type} ${l.net}`)
    .sort();

describe("a rolling reserve", () => {
  test("10 % of each day's net held for 3 days: each payout lower by exactly its hold, each hold back on its day", async () => {
    const merchant = await approvedMerchant(api, isv);
    const created = await post(`/v1/merchants/${merchant.id}/reserves`, {
      type: "rolling",
      percent: 10,
      hold_days: 3,
      reason: "Refunds are above 10 % of your sales",
    });
    expect(created.status, created.text).toBe(200);
    expect(created.json).toMatchObject({
      object: "reserve",
      merchant_id: merchant.id,
      type: "rolling",
      percent: 10,
      hold_days: 3,
      amount: null,
      status: "active",
      held: 0,
      next_release: null,
      created_by: "isv",
    });
    expect(created.json.id).toMatch(/^rsv_/);

    await pay(merchant, 10_000);
    await runDay(merchant, "2027-03-01");
    // 96.80 settled; 9.68 held; the payout is 87.12, its lines the charge and the hold.
    let payouts = await payoutsOf(merchant);
    expect(payouts.map((p) => p.amount)).toEqual([8_712]);
    expect(await linesOf(payouts[0]!.id)).toEqual(["charge 9680", "reserve_hold -968"]);
    expect(await balanceOf(merchant)).toMatchObject({ reserved: 968 });
    expect((await reservesOf(merchant))[0]).toMatchObject({
      held: 968,
      next_release: { amount: 968, date: "2027-03-04" },
    });

    await pay(merchant, 5_000);
    await runDay(merchant, "2027-03-02");
    payouts = await payoutsOf(merchant);
    // 48.25 settled; 4.82 held (rounded down).
    expect(payouts.map((p) => p.amount)).toEqual([8_712, 4_343]);
    expect(await balanceOf(merchant)).toMatchObject({ reserved: 1_450 });
    expect(await runDay(merchant, "2027-03-03")).toEqual([]);
    expect(await payoutsOf(merchant)).toHaveLength(2);

    // Thursday the 4th: Monday's hold comes back and is paid out, alone; Friday, Tuesday's.
    await runDay(merchant, "2027-03-04");
    payouts = await payoutsOf(merchant);
    expect(payouts.map((p) => p.amount)).toEqual([8_712, 4_343, 968]);
    expect(await linesOf(payouts[2]!.id)).toEqual(["reserve_release 968"]);
    expect((await reservesOf(merchant))[0]).toMatchObject({
      held: 482,
      next_release: { amount: 482, date: "2027-03-05" },
    });
    await runDay(merchant, "2027-03-05");
    expect((await payoutsOf(merchant)).map((p) => p.amount)).toEqual([8_712, 4_343, 968, 482]);
    expect(await balanceOf(merchant)).toMatchObject({ reserved: 0, available: 8_712 + 4_343 + 968 + 482 });
    // Its balance transactions: the holds and releases are available as written.
    const bts = (await get(`/v1/balance_transactions?merchant_id=${merchant.id}&type=reserve_hold`)).json.data;
    expect(bts.map((b: any) => `${b.net} ${b.status} ${b.source}`)).toEqual([
      `-482 available ${created.json.id}`,
      `-968 available ${created.json.id}`,
    ]);
    const [event] = await api.db
      .select()
      .from(events)
      .where(and(eq(events.objectId, created.json.id), eq(events.type, "reserve.created")));
    expect(event!.data).toMatchObject({ id: created.json.id, reason: "Refunds are above 10 % of your sales" });
  }, 90_000);
});

describe("a fixed reserve", () => {
  test("held from what is available now, the rest from the next settlement; a manual payout cannot draw it; released by hand once", async () => {
    const merchant = await approvedMerchant(api, isv);
    await patch(`/v1/merchants/${merchant.id}`, { payout_schedule: { interval: "manual" } });
    await pay(merchant, 10_000);
    await runDay(merchant, "2027-04-05");
    expect(await balanceOf(merchant)).toMatchObject({ available: 9_680, reserved: 0 });
    const created = await post(`/v1/merchants/${merchant.id}/reserves`, {
      type: "fixed",
      amount: 12_000,
      reason: "A deposit while your first months of sales are reviewed",
    });
    expect(created.status, created.text).toBe(200);
    expect(created.json).toMatchObject({ type: "fixed", amount: 12_000, held: 9_680, next_release: null });
    expect(await balanceOf(merchant)).toMatchObject({ available: 0, reserved: 9_680 });
    const refused = await post("/v1/payouts", { merchant_id: merchant.id, amount: 1 });
    expect(refused.json.error.code).toBe("insufficient_funds");

    await pay(merchant, 5_000);
    await runDay(merchant, "2027-04-06");
    // 48.25 settled: 23.20 tops the reserve up to 120.00, 25.05 is available.
    expect(await balanceOf(merchant)).toMatchObject({ available: 2_505, reserved: 12_000 });
    expect((await reservesOf(merchant))[0]).toMatchObject({ held: 12_000 });
    await pay(merchant, 5_000);
    await runDay(merchant, "2027-04-07");
    expect(await balanceOf(merchant)).toMatchObject({ available: 2_505 + 4_825, reserved: 12_000 });

    const released = await post(`/v1/merchants/${merchant.id}/reserves/${created.json.id}/release`);
    expect(released.status, released.text).toBe(200);
    expect(released.json).toMatchObject({ status: "released", held: 0, next_release: null });
    expect(released.json.released_at).toBeGreaterThan(0);
    expect(await balanceOf(merchant)).toMatchObject({ available: 2_505 + 4_825 + 12_000, reserved: 0 });
    const again = await post(`/v1/merchants/${merchant.id}/reserves/${created.json.id}/release`);
    expect(again.status).toBe(409);
    expect(await balanceOf(merchant)).toMatchObject({ reserved: 0, available: 19_330 });
    expect(await checkLedger(api.db, merchant.id)).toEqual([]);
    // A released reserve holds nothing from later settlements.
    await pay(merchant, 5_000);
    await runDay(merchant, "2027-04-08");
    expect(await balanceOf(merchant)).toMatchObject({ reserved: 0, available: 19_330 + 4_825 });
  }, 90_000);

  test("release_on: the daily run gives it all back on that day and ends it, and the day's payout takes it", async () => {
    const merchant = await approvedMerchant(api, isv);
    await patch(`/v1/merchants/${merchant.id}`, { payout_schedule: { interval: "manual" } });
    await pay(merchant, 10_000);
    await runDay(merchant, "2027-06-01");
    const created = await post(`/v1/merchants/${merchant.id}/reserves`, {
      type: "fixed",
      amount: 5_000,
      release_on: "2027-06-10",
      reason: "Held until your equipment order is delivered",
    });
    expect(created.json).toMatchObject({ held: 5_000, next_release: { amount: 5_000, date: "2027-06-10" } });
    await patch(`/v1/merchants/${merchant.id}`, { payout_schedule: { interval: "daily" } });
    await runDay(merchant, "2027-06-09");
    expect((await payoutsOf(merchant)).map((p) => p.amount)).toEqual([4_680]);
    await runDay(merchant, "2027-06-10");
    const payouts = await payoutsOf(merchant);
    expect(payouts.map((p) => p.amount)).toEqual([4_680, 5_000]);
    expect(await linesOf(payouts[1]!.id)).toEqual(["reserve_release 5000"]);
    expect((await reservesOf(merchant))[0]).toMatchObject({ status: "released", held: 0 });
    const [event] = await api.db
      .select()
      .from(events)
      .where(and(eq(events.objectId, created.json.id), eq(events.type, "reserve.released")));
    expect(event).toBeDefined();
  }, 90_000);
});

describe("a hold and a payout at once", () => {
  test("never draw the same cents (a race on PostgreSQL): what is held and paid out is at most what was available", async () => {
    const merchant = await approvedMerchant(api, isv);
    await patch(`/v1/merchants/${merchant.id}`, { payout_schedule: { interval: "manual" } });
    await pay(merchant, 10_000);
    await runDay(merchant, "2027-07-01");
    const answers = await Promise.all([
      post(`/v1/merchants/${merchant.id}/reserves`, { type: "fixed", amount: 6_000, reason: "At once" }),
      post("/v1/payouts", { merchant_id: merchant.id, amount: 6_000 }),
      post(`/v1/merchants/${merchant.id}/reserves`, { type: "fixed", amount: 6_000, reason: "At once too" }),
      post("/v1/payouts", { merchant_id: merchant.id, amount: 6_000 }),
    ]);
    const held = answers.filter((a) => a.json.object === "reserve").reduce((sum, a) => sum + a.json.held, 0);
    const paid = (await payoutsOf(merchant)).reduce((sum, p) => sum + p.amount, 0);
    expect(held + paid).toBeLessThanOrEqual(9_680);
    expect(await balanceOf(merchant)).toMatchObject({ reserved: held });
    expect(await checkLedger(api.db, merchant.id)).toEqual([]);
  }, 90_000);
});

describe("who may, and what is refused", () => {
  test("bad terms named, nothing made; the merchant's own key reads but cannot change; another ISV's merchant is not found", async () => {
    const merchant = await approvedMerchant(api, isv);
    const url = `/v1/merchants/${merchant.id}/reserves`;
    for (const bad of [
      { type: "rolling", percent: 0, hold_days: 30, reason: "Too little" },
      { type: "rolling", percent: 101, hold_days: 30, reason: "Too much" },
      { type: "rolling", percent: 10.555, hold_days: 30, reason: "Three decimals" },
      { type: "rolling", percent: 10, hold_days: 0, reason: "No days" },
      { type: "rolling", percent: 10, hold_days: 366, reason: "A year and a day" },
      { type: "rolling", percent: 10, hold_days: 30 },
      { type: "rolling", percent: 10, hold_days: 30, reason: "  " },
      { type: "fixed", amount: 0, reason: "Nothing" },
      { type: "fixed", amount: 10.5, reason: "Half a cent" },
      { type: "fixed", amount: 1_000, percent: 10, reason: "Both" },
      { type: "fixed", amount: 1_000, release_on: "2020-01-01", reason: "In the past" },
      { type: "fixed", amount: 1_000, release_on: "tomorrow", reason: "Not a date" },
      { type: "weekly", amount: 1_000, reason: "Unknown type" },
    ]) {
      const res = await post(url, bad);
      expect(res.status, JSON.stringify(bad)).toBe(400);
      expect(res.json.error.type).toBe("invalid_request_error");
    }
    expect(await reservesOf(merchant)).toEqual([]);
    expect((await post(url, { type: "fixed", amount: 1_000, reason: "Not yours" }, other.auth)).status).toBe(404);
    expect((await get(url, other.auth)).status).toBe(404);
    expect((await post(`${url}/rsv_nope/release`)).status).toBe(404);

    const [row] = await api.db.select().from(merchants).where(eq(merchants.id, merchant.id));
    const rotated = await rotateApiKey(api.db, row!.merchantAccountId!, false);
    const own = `Basic ${Buffer.from(`${rotated.account_sid}:${rotated.secret_key}`).toString("base64")}`;
    const mine = await post(url, { type: "fixed", amount: 1_000, reason: "By myself" }, own);
    expect(mine.status).toBe(403);
    const made = await post(url, { type: "rolling", percent: 2.5, hold_days: 30, reason: "A reason" });
    expect(made.json).toMatchObject({ percent: 2.5 });
    expect((await get(url, own)).json.data.map((r: { id: string }) => r.id)).toEqual([made.json.id]);
    expect((await post(`${url}/${made.json.id}/release`, undefined, own)).status).toBe(403);
    expect((await post(`${url}/${made.json.id}/release`, undefined, other.auth)).status).toBe(404);
    expect((await reservesOf(merchant))[0]).toMatchObject({ status: "active" });
    // A merchant not approved has nothing to hold.
    const lead = (await post("/v1/merchants", { phone: "+14155550100" })).json;
    const notApproved = await post(`/v1/merchants/${lead.id}/reserves`, { type: "fixed", amount: 1, reason: "Early" });
    expect(notApproved.json.error.code).toBe("merchant_not_approved");
  }, 90_000);
});

describe("the operator's CLI", () => {
  test("merchant reserve, reserves, reserve-release: the API's rules, any ISV's merchant", async () => {
    const merchant = await approvedMerchant(api, isv);
    const cli = (args: string[]) => runCommand(api.handle, [...args, "--json"]);
    const bad = await cli([
      "merchant",
      "reserve",
      merchant.id,
      "--rolling",
      "150",
      "--hold-days",
      "30",
      "--reason",
      "x",
    ]);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain("percent");
    expect((await cli(["merchant", "reserve", "mer_nope", "--fixed", "100", "--reason", "Nobody"])).code).toBe(1);
    const made = await cli([
      "merchant",
      "reserve",
      merchant.id,
      "--rolling",
      "5",
      "--hold-days",
      "60",
      "--reason",
      "Your chargebacks rose this month",
    ]);
    expect(made.code, made.stderr).toBe(0);
    const reserve = JSON.parse(made.stdout);
    expect(reserve).toMatchObject({ type: "rolling", percent: 5, hold_days: 60, created_by: "operator" });
    // The ISV sees it, made by the operator.
    expect((await reservesOf(merchant)).map((r) => r.id)).toEqual([reserve.id]);
    const listed = await runCommand(api.handle, ["merchant", "reserves", merchant.id]);
    expect(listed.stdout).toContain("5 % for 60 days");
    const released = await cli(["merchant", "reserve-release", merchant.id, reserve.id]);
    expect(JSON.parse(released.stdout)).toMatchObject({ status: "released" });
  }, 90_000);
});
