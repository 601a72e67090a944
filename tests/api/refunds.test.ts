import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";

import { charges, events, refunds } from "@/lib/db/schema";
import { checkLedger } from "@/lib/ledger/check";

import { startTestApi, type TestApi } from "../helpers/api";
import { approvedMerchant, tokenize } from "../helpers/payments";

let api: TestApi;
let isv: Awaited<ReturnType<TestApi["newIsv"]>>;
let other: Awaited<ReturnType<TestApi["newIsv"]>>;
let merchant: Awaited<ReturnType<typeof approvedMerchant>>;

beforeAll(async () => {
  api = await startTestApi({ worker: true });
  isv = await api.newIsv("Refund ISV");
  other = await api.newIsv("Other ISV");
  merchant = await approvedMerchant(api, isv);
}, 60_000);
afterAll(() => api.close());

const post = (path: string, body: unknown, auth = isv.auth) => api.call("POST", path, { auth, body });
const get = (path: string, auth = isv.auth) => api.call("GET", path, { auth });

/** A paid charge of `amount` cents (and, with a declining card, a FAILED one). */
async function charge(amount: number, card = "4242424242424242") {
  const pr = (await post("/v1/scan_to_pay", { merchant_id: merchant.id, amount })).json;
  const paid = await api.call("POST", `/v1/payment_requests/${pr.id}/pay`, {
    body: { token: await tokenize(api, merchant.publishableKey, card) },
  });
  return paid.json.charge.id as string;
}
const eventsOf = async (objectId: string) =>
  (await api.db.select().from(events).where(eq(events.objectId, objectId))).map((e) => e.type).sort();

/** The database's refusal of a write (drizzle wraps the driver's error: its cause names the constraint). */
async function refusal(write: PromiseLike<unknown>) {
  try {
    await write;
  } catch (error) {
    const cause = (error as { cause?: { message?: string; constraint?: string } }).cause;
    return `${cause?.constraint ?? ""} ${cause?.message ?? String(error)}`;
  }
  return "accepted";
}

describe("refunds", () => {
  test("partial, then the rest by default; the charge lists them; events; then nothing is left", async () => {
    const chargeId = await charge(5000);
    const first = await post("/v1/refunds", { charge_id: chargeId, amount: 1200, reason: "requested_by_customer" });
    expect(first.status).toBe(200);
    expect(first.json).toMatchObject({
      object: "refund",
      charge_id: chargeId,
      merchant_id: merchant.id,
      amount: 1200,
      currency: "usd",
      reason: "requested_by_customer",
      status: "succeeded",
    });
    expect(first.json.id).toMatch(/^re_/);
    expect(first.json.created_at).toBeGreaterThan(Date.now() - 60_000);

    const rest = await post("/v1/refunds", { charge_id: chargeId });
    expect(rest.json).toMatchObject({ amount: 3800, reason: null });

    const after = (await get(`/v1/charges/${chargeId}`)).json;
    expect(after.amount_refunded).toBe(5000);
    expect(after.amount_captured).toBe(5000);
    expect(after.refunds).toEqual([
      {
        id: first.json.id,
        charge_id: chargeId,
        merchant_id: merchant.id,
        amount: 1200,
        created_at: first.json.created_at,
      },
      {
        id: rest.json.id,
        charge_id: chargeId,
        merchant_id: merchant.id,
        amount: 3800,
        created_at: rest.json.created_at,
      },
    ]);
    expect(await eventsOf(first.json.id)).toEqual(["refund.created"]);
    expect((await eventsOf(chargeId)).filter((t) => t === "charge.refunded")).toHaveLength(2);
    expect((await get(`/v1/refunds/${first.json.id}`)).json).toEqual(first.json);

    const none = await post("/v1/refunds", { charge_id: chargeId });
    expect(none.status).toBe(400);
    expect(none.json.error.code).toBe("refund_exceeds_charge");
    const one = await post("/v1/refunds", { charge_id: chargeId, amount: 1 });
    expect(one.json.error).toMatchObject({ code: "refund_exceeds_charge", param: "amount" });
  });

  test("more than what is left is refused and changes nothing", async () => {
    const chargeId = await charge(1000);
    await post("/v1/refunds", { charge_id: chargeId, amount: 600 });
    const over = await post("/v1/refunds", { charge_id: chargeId, amount: 401 });
    expect(over.status).toBe(400);
    expect(over.json.error.message).toMatch(/left to refund .* \(400\)/);
    expect((await get(`/v1/charges/${chargeId}`)).json).toMatchObject({ amount_refunded: 600 });
    expect(await api.db.select().from(refunds).where(eq(refunds.chargeId, chargeId))).toHaveLength(1);
  });

  test("10 racing refunds of 30 % each: exactly 3 succeed, never more than captured", async () => {
    const chargeId = await charge(10_000);
    const results = await Promise.all(
      Array.from({ length: 10 }, () => post("/v1/refunds", { charge_id: chargeId, amount: 3000 })),
    );
    expect(results.filter((r) => r.status === 200)).toHaveLength(3);
    for (const r of results.filter((r) => r.status !== 200)) expect(r.json.error.code).toBe("refund_exceeds_charge");
    const [row] = await api.db.select().from(charges).where(eq(charges.id, chargeId));
    expect(row!.amountRefunded).toBe(9000);
    const rows = await api.db.select().from(refunds).where(eq(refunds.chargeId, chargeId));
    expect(rows.reduce((s, r) => s + r.amount, 0)).toBe(9000);
  });

  // On PGlite, which serves one statement (and one transaction) at a time, the 30 refunds below run
  // one after another: they would pass with the guard moved into JavaScript (read the charge, then
  // write). Only the PostgreSQL pass races them. What PGlite can see is the last line of defence,
  // the database's own constraint: the test after this one holds it.
  test("30 concurrent refunds of 1,000 on a 2,706 charge: exactly two succeed, amount_refunded is 2,000", async () => {
    const chargeId = await charge(2706);
    const results = await Promise.all(
      Array.from({ length: 30 }, () => post("/v1/refunds", { charge_id: chargeId, amount: 1000 })),
    );
    expect(results.filter((r) => r.status === 200)).toHaveLength(2);
    expect(results.filter((r) => r.status === 400 && r.json.error.code === "refund_exceeds_charge")).toHaveLength(28);
    expect((await get(`/v1/charges/${chargeId}`)).json).toMatchObject({ amount_refunded: 2000, amount_captured: 2706 });
    expect(await api.db.select().from(refunds).where(eq(refunds.chargeId, chargeId))).toHaveLength(2);
  });

  test("whatever the code above it does, the database refuses a charge refunded beyond its capture, and a second success for one request", async () => {
    const chargeId = await charge(1_500);
    const over = api.db.update(charges).set({ amountRefunded: 1_501 }).where(eq(charges.id, chargeId));
    expect(await refusal(over)).toContain("charges_refunded_within_captured");
    const negative = api.db.update(charges).set({ amountRefunded: -1 }).where(eq(charges.id, chargeId));
    expect(await refusal(negative)).toContain("charges_refunded_within_captured");
    const [row] = await api.db.select().from(charges).where(eq(charges.id, chargeId));
    expect(row!.amountRefunded).toBe(0);
    // A second AUTHORIZED charge of the same (PAID) request: the unique index refuses it.
    const { id: _id, seq: _seq, ...copy } = row!;
    const twice = api.db.insert(charges).values({ ...copy, id: `ch_second${chargeId.slice(3, 20)}` });
    expect(await refusal(twice)).toContain("charges_one_success_per_request_key");
    expect(
      await api.db.select().from(charges).where(eq(charges.paymentRequestId, row!.paymentRequestId!)),
    ).toHaveLength(1);
  });

  test("a FAILED charge cannot be refunded (409); the sandbox's failing amount changes nothing (400 refund_failed)", async () => {
    const failed = await charge(1000, "4000000000000002");
    const res = await post("/v1/refunds", { charge_id: failed });
    expect(res.status).toBe(409);
    expect(res.json.error.code).toBe("invalid_state");

    const chargeId = await charge(2000);
    const declined = await post("/v1/refunds", { charge_id: chargeId, amount: 666 });
    expect(declined.status).toBe(400);
    expect(declined.json.error.code).toBe("refund_failed");
    expect((await get(`/v1/charges/${chargeId}`)).json).toMatchObject({ amount_refunded: 0, refunds: [] });
    expect(await eventsOf(chargeId)).not.toContain("charge.refunded");
  });

  test.each([
    [{ amount: 0 }, "amount"],
    [{ amount: -5 }, "amount"],
    [{ amount: 1.5 }, "amount"],
    [{ reason: "bored" }, "reason"],
    [{ charge_id: undefined }, "charge_id"],
  ])("%j → 400 naming %s", async (change, param) => {
    const res = await post("/v1/refunds", { charge_id: "ch_x", amount: 100, ...change });
    expect(res.status).toBe(400);
    expect(res.json.error.param).toBe(param);
  });

  test("isolation and lists", async () => {
    const chargeId = await charge(3000);
    const refund = (await post("/v1/refunds", { charge_id: chargeId, amount: 100 })).json;
    expect((await post("/v1/refunds", { charge_id: chargeId, amount: 100 }, other.auth)).status).toBe(404);
    expect((await get(`/v1/refunds/${refund.id}`, other.auth)).status).toBe(404);
    expect((await get(`/v1/refunds?charge_id=${chargeId}`, other.auth)).json.data).toEqual([]);
    const second = (await post("/v1/refunds", { charge_id: chargeId, amount: 200 })).json;
    expect((await get(`/v1/refunds?charge_id=${chargeId}`)).json.data.map((r: any) => r.id)).toEqual([
      second.id,
      refund.id,
    ]);
    const page = (await get(`/v1/refunds?charge_id=${chargeId}&limit=1`)).json;
    expect(page).toMatchObject({ has_more: true, data: [{ id: second.id }] });
    expect((await get(`/v1/refunds?merchant_id=${merchant.id}&limit=100`)).json.data.map((r: any) => r.id)).toContain(
      refund.id,
    );
    expect(
      (await get(`/v1/charges?merchant_id=${merchant.id}&limit=100`)).json.data.find((c: any) => c.id === chargeId)
        .refunds,
    ).toHaveLength(2);
  });
});

test("the dashboard's merchant volume: captured less refunded over 30 days, declines and other ISVs' merchants aside", async () => {
  const { merchantVolumes } = await import("@/lib/domain/merchants/merchant-volume");
  const fresh = await approvedMerchant(api, isv);
  const a = await charge(10_000);
  await charge(2_500);
  await charge(4_000, "4000000000000002"); // declined: takes nothing
  expect((await post("/v1/refunds", { charge_id: a, amount: 1_234 })).status).toBe(200);
  const pr = (await post("/v1/scan_to_pay", { merchant_id: fresh.id, amount: 700 })).json;
  await api.call("POST", `/v1/payment_requests/${pr.id}/pay`, {
    body: { token: await tokenize(api, fresh.publishableKey, "4242424242424242") },
  });
  const before = await merchantVolumes(api.db, isv.account_id, [merchant.id, fresh.id]);
  // `merchant` carries the other tests' charges too: compare with its charges as the API lists them.
  const listed = (await get(`/v1/charges?merchant_id=${merchant.id}&limit=100`)).json.data as any[];
  const expected = listed.reduce((s, c) => s + c.amount_captured - c.amount_refunded, 0);
  expect(before.get(merchant.id)).toEqual({
    amount: expected,
    count: listed.filter((c) => c.amount_captured > 0).length,
  });
  expect(before.get(fresh.id)).toEqual({ amount: 700, count: 1 });
  // Another ISV asking about these merchants learns nothing.
  expect((await merchantVolumes(api.db, other.account_id, [merchant.id, fresh.id])).size).toBe(0);
  // 31 days later, nothing is in the window.
  expect((await merchantVolumes(api.db, isv.account_id, [fresh.id], new Date(Date.now() + 31 * 86_400_000))).size).toBe(
    0,
  );
});

test("the ledger's invariants hold after every test above (docs/reference.md section 18)", async () => {
  expect(await checkLedger(api.db)).toEqual([]);
});
