import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";

import { clock } from "@/lib/clock";
import { charges, events } from "@/lib/db/schema";
import { openDispute } from "@/lib/domain/disputes/open-dispute";
import { runRiskChecks } from "@/lib/domain/risk/risk-alerts";
import { settleAll } from "@/lib/domain/settlements/run-settlement";
import { nextMidnightUtc } from "@/lib/payouts/business-days";

import { startTestApi, type TestApi } from "../helpers/api";
import { approvedMerchant, payRequest } from "../helpers/payments";

// Risk after approval (docs/reference.md section 20): the daily job run for tonight (it looks at
// today), each rule broken once on purpose, its alert raised once however many runs, and the ISV's
// chosen action done. The example application declares $25,000 a month and $900 at most.

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi({ worker: true });
}, 120_000);
afterAll(() => api.close());

type Isv = Awaited<ReturnType<TestApi["newIsv"]>>;
const call = (isv: Isv, method: "GET" | "POST" | "PATCH", path: string, body?: unknown) =>
  api.call(method, path, { auth: isv.auth, body });
const tonight = () => nextMidnightUtc(clock.now());
const DAY = 86_400_000;

async function merchantOf(isv: Isv, sales: Record<string, string> = {}) {
  return approvedMerchant(api, isv, (app) => Object.assign(app.current_sales, sales));
}
async function card(isv: Isv, merchant: { id: string; publishableKey: string }, amount: number) {
  const res = await payRequest(api, isv, merchant, amount);
  expect(res.status, res.text).toBe(200);
  return res.json.charge as { id: string };
}
const alertsOf = async (isv: Isv, merchantId: string) =>
  (await call(isv, "GET", `/v1/risk_alerts?merchant_id=${merchantId}`)).json.data as Record<string, any>[];

describe("each rule, once", () => {
  test("large_ticket (notify): a charge over twice the declared highest; raised once however many runs; resolved by the ISV once", async () => {
    const isv = await api.newIsv("Risk ISV 1");
    const merchant = await merchantOf(isv, { highest_amount_to_date: "100" });
    await card(isv, merchant, 20_000); // exactly twice: not over
    expect(await runRiskChecks(api.db, tonight(), merchant.id)).toEqual([]);
    const big = await card(isv, merchant, 20_001);
    const [raised] = await runRiskChecks(api.db, tonight(), merchant.id);
    expect(raised).toMatchObject({ rule: "large_ticket", action: "notify", status: "open", period: big.id });
    expect(raised!.figures).toEqual({ charge_id: big.id, amount: 20_001, declared_highest: 10_000, limit: 20_000 });
    expect(await runRiskChecks(api.db, tonight(), merchant.id)).toEqual([]);
    const listed = await alertsOf(isv, merchant.id);
    expect(listed).toHaveLength(1);
    expect(listed[0]).toMatchObject({ object: "risk_alert", id: raised!.id, rule: "large_ticket", resolved_by: null });
    const [event] = await api.db
      .select()
      .from(events)
      .where(and(eq(events.objectId, raised!.id), eq(events.type, "merchant.risk_alert")));
    expect(event!.data).toMatchObject({ id: raised!.id, rule: "large_ticket" });
    // Another ISV sees none of it.
    const other = await api.newIsv("Risk other");
    expect((await call(other, "GET", "/v1/risk_alerts")).json.data).toEqual([]);
    expect((await call(other, "POST", `/v1/risk_alerts/${raised!.id}/resolve`)).status).toBe(404);
    const resolved = await call(isv, "POST", `/v1/risk_alerts/${raised!.id}/resolve`);
    expect(resolved.json).toMatchObject({ status: "resolved", resolved_by: "isv" });
    expect((await call(isv, "POST", `/v1/risk_alerts/${raised!.id}/resolve`)).status).toBe(409);
    expect((await call(isv, "GET", "/v1/risk_alerts?status=open")).json.data).toEqual([]);
  }, 90_000);

  test("volume_over_declared (reserve): the month's card volume over 1.5 × the declared month, pro rata; a rolling 10 % reserve for 90 days", async () => {
    const isv = await api.newIsv("Risk ISV 2");
    const set = await call(isv, "PATCH", "/v1/account", {
      settings: { risk_actions: { volume_over_declared: "reserve" } },
    });
    expect(set.json.settings.risk_actions).toEqual({
      volume_over_declared: "reserve",
      large_ticket: "notify",
      refund_rate: "notify",
      dispute_rate: "notify",
      decline_spike: "notify",
    });
    // Another rule changed later keeps this one.
    await call(isv, "PATCH", "/v1/account", { settings: { risk_actions: { decline_spike: "review" } } });
    expect((await call(isv, "GET", "/v1/account")).json.settings.risk_actions).toMatchObject({
      volume_over_declared: "reserve",
      decline_spike: "review",
    });
    expect(
      (await call(isv, "PATCH", "/v1/account", { settings: { risk_actions: { large_ticket: "shout" } } })).status,
    ).toBe(400);
    const merchant = await merchantOf(isv, { average_monthly_in_credit_card: "1" });
    await card(isv, merchant, 10_000);
    const [raised] = await runRiskChecks(api.db, tonight(), merchant.id);
    expect(raised).toMatchObject({ rule: "volume_over_declared", action: "reserve" });
    expect(raised!.figures).toMatchObject({ month_volume: 10_000, declared_monthly: 100 });
    const reserves = (await call(isv, "GET", `/v1/merchants/${merchant.id}/reserves`)).json.data;
    expect(reserves).toMatchObject([
      { id: raised!.reserveId, type: "rolling", percent: 10, hold_days: 90, created_by: "risk" },
    ]);
    expect(reserves[0].reason).toBe("Your sales this month are well above what you told us to expect");
    // Tomorrow's run, the month still over: not raised again.
    expect(await runRiskChecks(api.db, new Date(tonight().getTime() + DAY), merchant.id)).toEqual([]);
  }, 90_000);

  test("refund_rate (pause_payouts, then review): payouts held while open; pause lifted by the next run once the rule holds, review only by a person", async () => {
    const isv = await api.newIsv("Risk ISV 3");
    await call(isv, "PATCH", "/v1/account", {
      settings: { risk_actions: { refund_rate: "pause_payouts", large_ticket: "review" } },
    });
    const merchant = await merchantOf(isv, { highest_amount_to_date: "100" });
    const charge = await card(isv, merchant, 10_000);
    expect((await call(isv, "POST", "/v1/refunds", { charge_id: charge.id, amount: 1_000 })).status).toBe(200); // 10 %: not over
    expect(await runRiskChecks(api.db, tonight(), merchant.id)).toEqual([]);
    expect((await call(isv, "POST", "/v1/refunds", { charge_id: charge.id, amount: 1 })).status).toBe(200);
    const [raised] = await runRiskChecks(api.db, tonight(), merchant.id);
    expect(raised).toMatchObject({ rule: "refund_rate", action: "pause_payouts" });
    expect(raised!.figures).toEqual({ refunds: 1_001, volume: 10_000, rate_bps: 1001, limit_bps: 1000 });
    await settleAll(api.db, new Date(Date.now() + 1), { merchantId: merchant.id });
    const [payout] = (await call(isv, "GET", `/v1/payouts?merchant_id=${merchant.id}`)).json.data;
    expect(payout).toMatchObject({ status: "held", held_reason: "risk_review" });
    expect((await call(isv, "POST", "/v1/payouts", { merchant_id: merchant.id })).json.error.code).toBe("payouts_held");
    // A review alert too (a large ticket): payouts stay paused while either is open.
    await card(isv, merchant, 20_001);
    const [review] = await runRiskChecks(api.db, tonight(), merchant.id);
    expect(review).toMatchObject({ rule: "large_ticket", action: "review" });
    // 31 days on, the refunds are out of the window: the pause alert is resolved by the run; the review stays.
    await runRiskChecks(api.db, new Date(tonight().getTime() + 31 * DAY), merchant.id);
    const alerts = await alertsOf(isv, merchant.id);
    expect(alerts.map((a) => `${a.rule} ${a.status} ${a.resolved_by}`).sort()).toEqual([
      "large_ticket open null",
      "refund_rate resolved system",
    ]);
    expect((await call(isv, "GET", `/v1/payouts/${payout.id}`)).json.status).toBe("held");
    await call(isv, "POST", `/v1/risk_alerts/${review!.id}/resolve`);
    expect((await call(isv, "GET", `/v1/payouts/${payout.id}`)).json.status).not.toBe("held");
  }, 90_000);

  test("dispute_rate and decline_spike: a dispute on one card charge; ten declines in a day, half the attempts", async () => {
    const isv = await api.newIsv("Risk ISV 4");
    const merchant = await merchantOf(isv);
    const charge = await card(isv, merchant, 5_000);
    await settleAll(api.db, new Date(Date.now() + 1), { merchantId: merchant.id });
    await openDispute(api.db, charge.id, "fraudulent");
    // Nine declines (and the charge): not a spike; ten: one.
    const decline = (n: number) =>
      api.db.execute(sql`insert into charges (id, isv_account_id, merchant_id, payment_request_id, payment_type, status,
          requested_amount, amount_authorized, amount_captured, tip, tax, card_entry_method, receipt_number, created_at)
        select 'ch_decline_' || ${charge.id} || '_' || g, isv_account_id, merchant_id, payment_request_id, payment_type, 'FAILED',
          requested_amount, 0, 0, 0, 0, card_entry_method, receipt_number, created_at
        from ${charges}, generate_series(1, ${n}) g where id = ${charge.id}
        on conflict do nothing`);
    await decline(9);
    const first = await runRiskChecks(api.db, tonight(), merchant.id);
    expect(first.map((a) => a.rule)).toEqual(["dispute_rate"]);
    expect(first[0]!.figures).toEqual({ disputes: 1, card_charges: 1, rate_bps: 10_000, limit_bps: 75 });
    await decline(10);
    const second = await runRiskChecks(api.db, tonight(), merchant.id);
    expect(second.map((a) => a.rule)).toEqual(["decline_spike"]);
    expect(second[0]!.figures).toMatchObject({ declines: 10, attempts: 11 });
    expect(await runRiskChecks(api.db, tonight(), merchant.id)).toEqual([]);
  }, 90_000);
});
