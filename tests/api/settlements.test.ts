import { and, eq, inArray, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";

import { events, jobs, refunds, settlements, webhookDeliveries } from "@/lib/db/schema";
import { settlementWithLines } from "@/lib/domain/settlements/find-settlement";
import { runSettlement, scheduleSettlement, settleAll } from "@/lib/domain/settlements/run-settlement";
import { checkLedger } from "@/lib/ledger/check";
import { nextMidnightUtc } from "@/lib/payouts/business-days";

import { startTestApi, type TestApi } from "../helpers/api";
import { sourcesTakenBy } from "../helpers/ledger";
import { approvedMerchant, tokenize } from "../helpers/payments";

let api: TestApi;
let isv: Awaited<ReturnType<TestApi["newIsv"]>>;

beforeAll(async () => {
  api = await startTestApi({ worker: true });
  isv = await api.newIsv("Settlement ISV");
}, 60_000);
afterAll(() => api.close());

const post = (path: string, body: unknown, auth = isv.auth) => api.call("POST", path, { auth, body });
const get = (path: string, auth = isv.auth) => api.call("GET", path, { auth });

async function payByCard(
  merchant: Awaited<ReturnType<typeof approvedMerchant>>,
  amount: number,
  card = "4242424242424242",
  extra: Record<string, unknown> = {},
) {
  const pr = (await post("/v1/scan_to_pay", { merchant_id: merchant.id, amount })).json;
  const res = await api.call("POST", `/v1/payment_requests/${pr.id}/pay`, {
    body: { token: await tokenize(api, merchant.publishableKey, card), ...extra },
  });
  return res.json.charge.id as string;
}
async function payAtTerminal(merchant: Awaited<ReturnType<typeof approvedMerchant>>, amount: number, card: string) {
  await post("/v1/terminal", { merchant_id: merchant.id, terminal_id: merchant.terminalId, amount });
  return (
    await post(`/v1/test_helpers/terminals/${merchant.terminalId}/present_card`, {
      card_entry_method: "CHIP",
      card_number: card,
    })
  ).json.id as string;
}
async function allCharges(settlementId: string) {
  const out: any[] = [];
  let after = "";
  for (;;) {
    const page = (await get(`/v1/settlements/${settlementId}/charges?limit=100${after}`)).json;
    out.push(...page.data);
    if (!page.has_more) return out;
    after = `&starting_after=${page.data.at(-1).id}`;
  }
}

describe("daily settlement", () => {
  test("a day of mixed charges and refunds on two merchants: each settlement adds up to the cent; a second run settles nothing", async () => {
    const flat = await approvedMerchant(api, isv);
    const tiered = await approvedMerchant(api, isv, (a) => {
      a.capabilities = { types: ["tiered"] };
    });
    const flatCharges = [
      await payByCard(flat, 1233),
      await payByCard(flat, 10_000, "378282246310005"),
      await payByCard(flat, 2599, "4000056655665556"),
      await payAtTerminal(flat, 4500, "5555555555554444"),
    ];
    const declined = await payByCard(flat, 900, "4000000000000002");
    const tieredCharges = [
      await payByCard(tiered, 8000, "6011111111111117", { billing_address: { postal_code: "94107" } }),
      await payAtTerminal(tiered, 3333, "4242424242424242"),
    ];
    await post("/v1/refunds", { charge_id: flatCharges[1], amount: 2500 });
    await post("/v1/refunds", { charge_id: tieredCharges[0], amount: 8000 });

    const run = await post("/v1/test_helpers/settlement/run", {});
    expect(run.status).toBe(200);
    const made = run.json.data as any[];
    expect(made.map((s) => s.merchant_id).sort()).toEqual([flat.id, tiered.id].sort());

    for (const [merchant, ids] of [
      [flat, flatCharges],
      [tiered, tieredCharges],
    ] as const) {
      const settlement = made.find((s) => s.merchant_id === merchant.id);
      expect(settlement.id).toMatch(/^stl_/);
      expect((await get(`/v1/settlements/${settlement.id}`)).json).toEqual(settlement);
      const lines = await allCharges(settlement.id);
      expect(lines.map((c) => c.id).sort()).toEqual([...ids].sort());
      for (const c of lines) expect(c).toMatchObject({ status: "SETTLED", settlement_id: settlement.id });
      const refundIds = await sourcesTakenBy(api.db, settlement.id, "refund");
      const refundRows = refundIds.length
        ? await api.db.select().from(refunds).where(inArray(refunds.id, refundIds))
        : [];
      expect(settlement.charge_count).toBe(lines.length);
      expect(settlement.gross).toBe(lines.reduce((s, c) => s + c.amount_captured, 0));
      expect(settlement.fees).toBe(lines.reduce((s, c) => s + c.fee, 0));
      expect(settlement.refunds).toBe(refundRows.reduce((s, r) => s + r.amount, 0));
      expect(settlement.refund_count).toBe(refundRows.length);
      expect(settlement.net).toBe(settlement.gross - settlement.refunds - settlement.fees);
      expect(settlement.payout_status).toBe("scheduled");
      const types = (await api.db.select().from(events).where(eq(events.objectId, settlement.id))).map((e) => e.type);
      expect(types).toEqual(["settlement.created"]);
    }
    // Hand-worked, flat rate: 1233 → 66; Amex 10000 → 380; debit 2599 → 2.50 % + 25 = 89.975 → 90; CHIP MC 4500 → 130.5 + 30 → 161
    const flatSettlement = made.find((s) => s.merchant_id === flat.id);
    expect(flatSettlement).toMatchObject({
      gross: 18_332,
      fees: 66 + 380 + 90 + 161,
      refunds: 2500,
      net: 18_332 - 2500 - 697,
      charge_count: 4,
      refund_count: 1,
    });
    // The home's settlement page: its lines (4 payments with their fees, 1 refund) add up to the same figures.
    const detail = await settlementWithLines(api.db, { isvAccountId: isv.account_id }, flatSettlement.id);
    expect(detail.lines.map((l) => l.kind).sort()).toEqual(["charge", "charge", "charge", "charge", "refund"]);
    const lineSum = detail.lines.reduce((sum, l) => sum + l.amount - l.fee, 0);
    expect(lineSum).toBe(flatSettlement.net);
    expect(detail.totals).toMatchObject({
      gross: flatSettlement.gross,
      fees: flatSettlement.fees,
      refunds: flatSettlement.refunds,
      net: flatSettlement.net,
    });
    await expect(
      settlementWithLines(api.db, { isvAccountId: isv.account_id, merchantId: tiered.id }, flatSettlement.id),
    ).rejects.toMatchObject({ code: "resource_missing" });
    // Tiered: Discover keyed with a postal code (mid-qualified 2.49 % + 0.10) → 209.2 → 209; CHIP Visa (qualified 1.69 %) → 56.3 → 56
    expect(made.find((s) => s.merchant_id === tiered.id)).toMatchObject({
      gross: 11_333,
      fees: 209 + 56,
      refunds: 8000,
      net: 11_333 - 8000 - 265,
    });

    // Each charge announced once; the declined one untouched.
    for (const id of [...flatCharges, ...tieredCharges]) {
      expect(
        (
          await api.db
            .select()
            .from(events)
            .where(and(eq(events.objectId, id), eq(events.type, "charge.settled")))
        ).length,
      ).toBe(1);
    }
    expect((await get(`/v1/charges/${declined}`)).json).toMatchObject({ status: "FAILED", settlement_id: null });

    const again = await post("/v1/test_helpers/settlement/run", {});
    expect(again.json.data).toEqual([]);

    // A refund after the settlement goes into the next one, alone.
    await post("/v1/refunds", { charge_id: flatCharges[0], amount: 233 });
    const next = (await post("/v1/test_helpers/settlement/run", { merchant_id: flat.id })).json.data;
    expect(next).toHaveLength(1);
    expect(next[0]).toMatchObject({ charge_count: 0, gross: 0, fees: 0, refunds: 233, net: -233, refund_count: 1 });
    expect((await get(`/v1/settlements?merchant_id=${flat.id}`)).json.data.map((s: any) => s.id)).toEqual([
      next[0].id,
      flatSettlement.id,
    ]);
  }, 60_000);

  test("automatic_payouts false holds the payout; another ISV sees none of it", async () => {
    const merchant = await approvedMerchant(api, isv);
    await api.call("PATCH", `/v1/merchants/${merchant.id}`, { auth: isv.auth, body: { automatic_payouts: false } });
    await payByCard(merchant, 5000);
    const [settlement] = (await post("/v1/test_helpers/settlement/run", { merchant_id: merchant.id })).json.data;
    expect(settlement.payout_status).toBe("held");
    const other = await api.newIsv("Other");
    expect((await get(`/v1/settlements/${settlement.id}`, other.auth)).status).toBe(404);
    expect((await get(`/v1/settlements/${settlement.id}/charges`, other.auth)).status).toBe(404);
    expect((await post("/v1/test_helpers/settlement/run", { merchant_id: merchant.id }, other.auth)).json.data).toEqual(
      [],
    );
  }, 30_000);

  test("the schedule: one job per day whoever asks; two runs at once settle each charge once; each run queues the next day", async () => {
    const merchant = await approvedMerchant(api, isv);
    const ids = await Promise.all([payByCard(merchant, 1000), payByCard(merchant, 2000), payByCard(merchant, 3000)]);
    const from = new Date("2031-03-04T15:00:00Z");
    await Promise.all([
      scheduleSettlement(api.db, from),
      scheduleSettlement(api.db, from),
      scheduleSettlement(api.db, from),
    ]);
    const scheduled = await api.db.select().from(jobs).where(eq(jobs.id, "job_settlement_run_2031-03-05"));
    expect(scheduled).toHaveLength(1);
    expect(scheduled[0]!.runAt.toISOString()).toBe("2031-03-05T00:00:00.000Z");
    expect(nextMidnightUtc(new Date("2031-12-31T23:59:59Z")).toISOString()).toBe("2032-01-01T00:00:00.000Z");

    // Subscribed to the charge scope: each settled charge and the settlement get one delivery.
    const hook = (await post("/v1/webhooks", { url: "https://hooks.example.test/settlements", scopes: ["charge"] }))
      .json;

    // Two runs at once (two workers): each charge lands in exactly one settlement.
    const cutoff = new Date(Date.now() + 1000);
    await Promise.all([
      settleAll(api.db, cutoff, { merchantId: merchant.id }),
      settleAll(api.db, cutoff, { merchantId: merchant.id }),
    ]);
    const made = await api.db.select().from(settlements).where(eq(settlements.merchantId, merchant.id));
    expect(made).toHaveLength(1);
    expect(made[0]).toMatchObject({ chargeCount: 3, gross: 6000 });
    // Each charge names the one settlement (the ledger's: the settlement that took its posting).
    const named = await Promise.all(
      ids.map(async (id) => (await api.call("GET", `/v1/charges/${id}`, { auth: isv.auth })).json.settlement_id),
    );
    expect(new Set(named)).toEqual(new Set([made[0]!.id]));
    const settledEvents = await api.db
      .select()
      .from(events)
      .where(and(eq(events.type, "charge.settled"), sql`${events.objectId} in ${ids}`));
    expect(settledEvents).toHaveLength(3);
    const deliveries = await api.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.webhookId, hook.id));
    const created = await api.db
      .select()
      .from(events)
      .where(and(eq(events.type, "settlement.created"), eq(events.objectId, made[0]!.id)));
    // ...and its payout's (docs/reference.md section 16), once.
    const payout = await api.db
      .select()
      .from(events)
      .where(and(eq(events.type, "payout.created"), sql`${events.data}->>'settlement_id' = ${made[0]!.id}`));
    expect(payout).toHaveLength(1);
    expect(deliveries.map((d) => d.eventId).sort()).toEqual(
      [...settledEvents.map((e) => e.id), created[0]!.id, payout[0]!.id].sort(),
    );
    const queued = await api.db
      .select()
      .from(jobs)
      .where(
        and(eq(jobs.type, "webhook_delivery"), sql`${jobs.payload}->>'delivery_id' in ${deliveries.map((d) => d.id)}`),
      );
    expect(queued).toHaveLength(5);
    await api.call("DELETE", `/v1/webhooks/${hook.id}`, { auth: isv.auth });

    // The job's handler settles up to its cutoff (long past here: nothing, and nothing of the other
    // test files sharing this database), then queues the next midnight from now, not a day-by-day
    // catch-up of every missed day.
    const before = (await api.db.select({ n: sql<number>`count(*)::int` }).from(settlements))[0]!.n;
    await runSettlement(api.db, { cutoff: "2001-01-01T00:00:00.000Z" });
    expect((await api.db.select({ n: sql<number>`count(*)::int` }).from(settlements))[0]!.n).toBe(before);
    const next = `job_settlement_run_${nextMidnightUtc().toISOString().slice(0, 10)}`;
    expect(await api.db.select().from(jobs).where(eq(jobs.id, next))).toHaveLength(1);
    expect(await api.db.select().from(jobs).where(eq(jobs.id, "job_settlement_run_2001-01-02"))).toHaveLength(0);
  }, 30_000);
});

test("the ledger's invariants hold after every test above (docs/reference.md section 18)", async () => {
  expect(await checkLedger(api.db)).toEqual([]);
});
