import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";

import { events, jobs, merchants, outbox, payouts, settlements } from "@/lib/db/schema";
import { changeBankAccount } from "@/lib/domain/home/settings";
import { scheduledPayout } from "@/lib/domain/payouts/payout-for-settlement";
import { reconsiderPayouts } from "@/lib/domain/payouts/reconsider-payouts";
import { setPayoutSettings } from "@/lib/domain/payouts/settings";
import { createId } from "@/lib/ids";
import { checkLedger } from "@/lib/ledger/check";
import { post as postToLedger } from "@/lib/ledger/post";
import { nextBusinessDay } from "@/lib/payouts/business-days";

import { startTestApi, type TestApi } from "../helpers/api";
import { freshHomeSession } from "../helpers/fixtures";
import { approvedMerchant, tokenize } from "../helpers/payments";
import { pdfText } from "../helpers/pdf";
import { until } from "../helpers/until";

// Payouts (docs/reference.md section 16), through the API with the server's own worker: every
// figure worked by hand. Fees: flat rate 2.90 % + $0.30 (Visa credit, half up):
//   100.00 → 3.20 · 50.00 → 1.75 · 20.00 → 0.88 · 10.00 → 0.59

let api: TestApi;
let isv: Awaited<ReturnType<TestApi["newIsv"]>>;
let other: Awaited<ReturnType<TestApi["newIsv"]>>;

beforeAll(async () => {
  api = await startTestApi({ worker: true });
  isv = await api.newIsv("Payouts ISV");
  // A new bank account pays as soon as it is verified here (the cooling-off has its own test).
  await api.call("PATCH", "/v1/account", { auth: isv.auth, body: { settings: { new_bank_account_hold_days: 0 } } });
  other = await api.newIsv("Other ISV");
}, 120_000);
afterAll(() => api.close());

const post = (path: string, body?: unknown) => api.call("POST", path, { auth: isv.auth, body });
const get = (path: string) => api.call("GET", path, { auth: isv.auth });

type Merchant = Awaited<ReturnType<typeof approvedMerchant>>;

async function pay(merchant: Merchant, amount: number) {
  const pr = (await post("/v1/scan_to_pay", { merchant_id: merchant.id, amount })).json;
  const res = await api.call("POST", `/v1/payment_requests/${pr.id}/pay`, {
    body: { token: await tokenize(api, merchant.publishableKey) },
  });
  expect(res.json.charge.status).toBe("AUTHORIZED");
  return res.json.charge.id as string;
}

/** Settles the merchant now; answers its settlement (or null) and the payouts it has then. */
async function settle(merchant: Merchant) {
  const run = await post("/v1/test_helpers/settlement/run", { merchant_id: merchant.id });
  expect(run.status).toBe(200);
  return (run.json.data[0] ?? null) as Record<string, any> | null;
}

const payoutsOf = async (merchantId: string) =>
  (await get(`/v1/payouts?merchant_id=${merchantId}&limit=100`)).json.data as Record<string, any>[];

const payoutStatus = async (id: string) => (await get(`/v1/payouts/${id}`)).json.status as string;

describe("payouts", () => {
  test("a positive net makes one payout: sent to arrive the next business day, then paid; another ISV sees nothing", async () => {
    const merchant = await approvedMerchant(api, isv);
    await pay(merchant, 10_000);
    await pay(merchant, 5_000);
    const settlement = await settle(merchant);
    expect(settlement).toMatchObject({ gross: 15_000, fees: 320 + 175, carried_in: 0, net: 14_505 });
    expect(settlement!.payout_status).toBe("scheduled");

    const [payout] = await payoutsOf(merchant.id);
    expect(payout).toMatchObject({
      object: "payout",
      merchant_id: merchant.id,
      settlement_id: settlement!.id,
      replaces: null,
      amount: 14_505,
      currency: "usd",
      held_reason: null,
      failure_code: null,
      bank_account: { last4: "6789", bank_name: "Example Community Bank" },
    });
    // The worker sends it at once; the bank answers on the arrival date (not before, by itself).
    await until(
      () => payoutStatus(payout!.id),
      (s) => s === "in_transit",
      20_000,
      "the payout to be sent",
    );
    const sent = (await get(`/v1/payouts/${payout!.id}`)).json;
    expect(sent.arrival_date).toBe(nextBusinessDay(new Date()));

    // Another ISV: 404 for the payout and its helper, an empty list, whatever filter it tries.
    const foreign = await api.call("GET", `/v1/payouts/${payout!.id}`, { auth: other.auth });
    expect(foreign.status).toBe(404);
    expect(foreign.json.error.code).toBe("resource_missing");
    const advanceForeign = await api.call("POST", `/v1/test_helpers/payouts/${payout!.id}/advance`, {
      auth: other.auth,
    });
    expect(advanceForeign.status).toBe(404);
    expect((await api.call("GET", `/v1/payouts?merchant_id=${merchant.id}`, { auth: other.auth })).json.data).toEqual(
      [],
    );
    expect(await payoutStatus(payout!.id)).toBe("in_transit");

    const paid = await post(`/v1/test_helpers/payouts/${payout!.id}/advance`);
    expect(paid.status).toBe(200);
    expect(paid.json).toMatchObject({ status: "paid", amount: 14_505, arrival_date: sent.arrival_date });
    // The settlement says it too (it said `scheduled` while the payout was pending and on its way).
    expect((await get(`/v1/settlements/${settlement!.id}`)).json.payout_status).toBe("paid");
    // Nothing moves a paid payout: 409, and it is unchanged.
    const again = await post(`/v1/test_helpers/payouts/${payout!.id}/advance`);
    expect(again.status).toBe(409);
    expect(again.json.error.code).toBe("invalid_state");
    expect((await get(`/v1/payouts/${payout!.id}`)).json).toEqual(paid.json);

    const types = (
      await api.db
        .select({ type: events.type })
        .from(events)
        .where(and(eq(events.objectId, payout!.id)))
        .orderBy(events.seq)
    ).map((e) => e.type);
    expect(types).toEqual(["payout.created", "payout.paid"]);
    // Settling again takes nothing and pays nothing twice.
    expect(await settle(merchant)).toBeNull();
    expect(await payoutsOf(merchant.id)).toHaveLength(1);
    expect((await get(`/v1/payouts?status=paid&merchant_id=${merchant.id}`)).json.data).toHaveLength(1);
    expect((await get(`/v1/payouts?status=held&merchant_id=${merchant.id}`)).json.data).toEqual([]);
    expect((await get(`/v1/payouts?settlement_id=${settlement!.id}`)).json.data.map((p: any) => p.id)).toEqual([
      payout!.id,
    ]);

    // The month's statement lists the payout as it stands, in its JSON and its PDF.
    const period = new Date().toISOString().slice(0, 7);
    const statement = (await post("/v1/test_helpers/statements/generate", { merchant_id: merchant.id, period })).json;
    const detail = (await get(`/v1/statements/${merchant.id}/${statement.id}`)).json;
    expect(detail.payouts).toEqual([
      {
        id: payout!.id,
        settlement_id: settlement!.id,
        created_at: new Date(payout!.created_at).toISOString(),
        amount: 14_505,
        status: "paid",
        arrival_date: sent.arrival_date,
        failure_code: null,
      },
    ]);
    const pdf = await fetch(`${api.baseUrl}/v1/statements/${merchant.id}/download/${statement.id}`, {
      headers: { authorization: isv.auth },
    });
    const text = (await pdfText(new Uint8Array(await pdf.arrayBuffer()))).join("\n");
    expect(text).toContain("Payouts to your bank");
    expect(text).toContain(payout!.id);
    expect(text).toContain("$145.05");
  }, 90_000);

  test("a negative net pays nothing and is carried into the next settlements until a positive one pays the rest", async () => {
    const merchant = await approvedMerchant(api, isv);
    const first = await pay(merchant, 2_000);
    const day1 = await settle(merchant);
    expect(day1).toMatchObject({ gross: 2_000, fees: 88, carried_in: 0, net: 1_912 });

    expect((await post("/v1/refunds", { charge_id: first, amount: 2_000 })).status).toBe(200);
    const day2 = await settle(merchant);
    expect(day2).toMatchObject({ gross: 0, refunds: 2_000, fees: 0, carried_in: 0, net: -2_000 });

    await pay(merchant, 1_000);
    const day3 = await settle(merchant);
    // Still short: 10.00 - 0.59 - 20.00.
    expect(day3).toMatchObject({ gross: 1_000, fees: 59, carried_in: -2_000, net: -1_059 });

    await pay(merchant, 5_000);
    const day4 = await settle(merchant);
    expect(day4).toMatchObject({ gross: 5_000, fees: 175, carried_in: -1_059, net: 3_766 });

    const made = await payoutsOf(merchant.id);
    expect(made.map((p) => [p.settlement_id, p.amount])).toEqual([
      [day4!.id, 3_766],
      [day1!.id, 1_912],
    ]);
    // What reached the bank is every charge less its fee and the refund, to the cent.
    expect(made.reduce((sum, p) => sum + p.amount, 0)).toBe(2_000 + 1_000 + 5_000 - (88 + 59 + 175) - 2_000);
  }, 90_000);

  test("payouts turned off wait (held); turned on, they go", async () => {
    const merchant = await approvedMerchant(api, isv);
    expect(
      (await api.call("PATCH", `/v1/merchants/${merchant.id}`, { auth: isv.auth, body: { automatic_payouts: false } }))
        .status,
    ).toBe(200);
    await pay(merchant, 2_000);
    const settlement = await settle(merchant);
    expect(settlement).toMatchObject({ net: 1_912, payout_status: "held" });
    const [held] = await payoutsOf(merchant.id);
    expect(held).toMatchObject({ status: "held", held_reason: "automatic_payouts_off", amount: 1_912 });
    const refused = await post(`/v1/test_helpers/payouts/${held!.id}/advance`);
    expect(refused.status).toBe(409);
    expect(await payoutStatus(held!.id)).toBe("held");
    // A held payout holds nothing in the ledger: its money stays available (what a manual payout or
    // the next one draws), and no payout line is written until it is sent.
    expect((await get(`/v1/balance?merchant_id=${merchant.id}`)).json).toMatchObject({ available: 1_912, pending: 0 });
    const heldLines = (await get(`/v1/balance_transactions?payout=${held!.id}`)).json.data as { type: string }[];
    expect(heldLines.map((t) => t.type)).toEqual(["charge"]);
    expect(await checkLedger(api.db, merchant.id)).toEqual([]);

    expect(
      (await api.call("PATCH", `/v1/merchants/${merchant.id}`, { auth: isv.auth, body: { automatic_payouts: true } }))
        .status,
    ).toBe(200);
    await until(
      () => payoutStatus(held!.id),
      (s) => s === "in_transit",
      20_000,
      "the released payout to be sent",
    );
    expect((await get(`/v1/payouts/${held!.id}`)).json.held_reason).toBeNull();
    // Sent: the money left the available balance, once.
    expect((await get(`/v1/balance?merchant_id=${merchant.id}`)).json).toMatchObject({ available: 0, pending: 0 });
    const sentLines = (await get(`/v1/balance_transactions?payout=${held!.id}`)).json.data as { type: string }[];
    expect(sentLines.map((t) => t.type).sort()).toEqual(["charge", "payout"]);
    expect(await checkLedger(api.db)).toEqual([]);
    // The settlement says so too: its payout is no longer held.
    expect((await get(`/v1/settlements/${settlement!.id}`)).json.payout_status).toBe("scheduled");
  }, 90_000);

  test("a payout held before its send job ran is sent once released (the release queues a job of its own)", async () => {
    const merchant = await approvedMerchant(api, isv);
    // Made pending (its send job queued), then held, in one transaction: the worker's job finds it held.
    const payoutId = await api.db.transaction(async (tx) => {
      const [row] = await tx.select().from(merchants).where(eq(merchants.id, merchant.id)).for("update");
      // A settlement made by hand, and in the ledger what it made available.
      const settlementId = createId("stl");
      await postToLedger(tx, {
        isvAccountId: row!.isvAccountId,
        merchantId: row!.id,
        type: "adjustment",
        sourceId: settlementId,
        amount: 941,
        description: "a settlement made by hand",
        settlementId,
        entries: [
          { account: "available", owner: row!.id, amount: 941 },
          { account: "platform_cash", owner: null, amount: -941 },
        ],
      });
      const [settlement] = await tx
        .insert(settlements)
        .values({
          id: settlementId,
          isvAccountId: row!.isvAccountId,
          merchantId: row!.id,
          chargeCount: 1,
          refundCount: 0,
          gross: 1_000,
          refunds: 0,
          fees: 59,
          net: 941,
          payoutStatus: "scheduled",
          cutoff: new Date(),
        })
        .returning();
      const payout = await scheduledPayout(tx, row!, new Date(), settlement!.id);
      expect(payout!.status).toBe("pending");
      await setPayoutSettings(tx, { id: row!.id, recipient: "merchant" }, { automatic: false });
      await reconsiderPayouts(tx, row!);
      return payout!.id;
    });
    const sendJobs = () =>
      api.db
        .select({ status: jobs.status })
        .from(jobs)
        .where(and(eq(jobs.type, "payout_advance"), sql`${jobs.payload}->>'payout_id' = ${payoutId}`));
    await until(sendJobs, (j) => j.length === 1 && j[0]!.status === "done", 20_000, "the first send job to run");
    expect((await get(`/v1/payouts/${payoutId}`)).json).toMatchObject({
      status: "held",
      held_reason: "automatic_payouts_off",
    });
    const on = await api.call("PATCH", `/v1/merchants/${merchant.id}`, {
      auth: isv.auth,
      body: { automatic_payouts: true },
    });
    expect(on.status).toBe(200);
    await until(
      () => payoutStatus(payoutId),
      (st) => st === "in_transit",
      20_000,
      "the released payout to be sent",
    );
  }, 90_000);

  test("a payout the bank refuses holds the next, asks for a new bank account, and is paid again once it is verified", async () => {
    const merchant = await approvedMerchant(api, isv, (application) => {
      application.bank_account.account_number = "000555555550";
      application.bank_account.account_number_confirm = "000555555550";
    });
    await pay(merchant, 10_000);
    await settle(merchant);
    const [first] = await payoutsOf(merchant.id);
    expect(first).toMatchObject({ amount: 9_680, bank_account: { last4: "5550" } });
    await until(
      () => payoutStatus(first!.id),
      (s) => s === "in_transit",
      20_000,
      "the payout to be sent",
    );
    const failed = await post(`/v1/test_helpers/payouts/${first!.id}/advance`);
    expect(failed.json).toMatchObject({ status: "failed", failure_code: "account_closed" });
    expect((await get(`/v1/settlements/${first!.settlement_id}`)).json.payout_status).toBe("failed");

    // The merchant is asked for a new bank account, in words, and told by e-mail.
    const asked = (await get(`/v1/merchants/${merchant.id}`)).json;
    expect(asked.requirements.currently_due).toEqual(["merchant.bank_account"]);
    expect(asked.requirements.errors).toEqual([
      {
        field: "merchant.bank_account",
        code: "payout_failed",
        message: "The bank account is closed: a payout to it was refused. Enter a new bank account.",
      },
    ]);
    const mail = await api.db.select().from(outbox).where(eq(outbox.merchantId, merchant.id));
    const notice = mail.filter((m) => m.kind === "payout_failed");
    expect(notice).toHaveLength(1);
    expect(notice[0]!.subject).toBe("Payouts ISV: a payout could not reach your bank");
    expect(notice[0]!.text).toContain("$96.80");
    expect(notice[0]!.text).toContain("the account is closed");
    expect(notice[0]!.text).toContain("/home/settings");

    // The next settlement's payout waits for the new account.
    await pay(merchant, 5_000);
    const second = await settle(merchant);
    expect(second).toMatchObject({ net: 4_825, payout_status: "held" });
    const waiting = (await payoutsOf(merchant.id)).find((p) => p.settlement_id === second!.id)!;
    expect(waiting).toMatchObject({ status: "held", held_reason: "payout_failed" });

    // A new bank account: no longer asked; payouts wait for its check, then go, and what failed is paid again.
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
    const after = (await get(`/v1/merchants/${merchant.id}`)).json;
    expect(after.requirements.errors).toEqual([]);
    await until(
      async () => (await payoutsOf(merchant.id)).length,
      (n) => n === 3,
      20_000,
      "the replacement payout once the new account is verified",
    );
    const all = await payoutsOf(merchant.id);
    const replacement = all.find((p) => p.replaces === first!.id)!;
    expect(replacement).toMatchObject({ amount: 9_680, settlement_id: first!.settlement_id });
    // Both settlements' payouts may go: neither says held any more.
    for (const id of [first!.settlement_id, second!.id])
      expect((await get(`/v1/settlements/${id}`)).json.payout_status).toBe("scheduled");
    for (const p of [replacement, waiting]) {
      await until(
        () => payoutStatus(p.id),
        (s) => s === "in_transit",
        20_000,
        "the payout to be sent",
      );
      const paid = await post(`/v1/test_helpers/payouts/${p.id}/advance`);
      expect(paid.json).toMatchObject({ status: "paid", bank_account: { last4: "4321", bank_name: "Second Bank" } });
    }
    // Both settlements' payouts were paid (the first's by its replacement).
    for (const id of [first!.settlement_id, second!.id])
      expect((await get(`/v1/settlements/${id}`)).json.payout_status).toBe("paid");
    // The failed payout stays failed; it is replaced once, whatever happens next: looked at again and
    // again (each switch of automatic payouts, each bank account change and check does), nothing new.
    for (let i = 0; i < 5; i++)
      await api.db.transaction(async (tx) => {
        const [locked] = await tx.select().from(merchants).where(eq(merchants.id, merchant.id)).for("update");
        await reconsiderPayouts(tx, locked!);
      });
    expect(await payoutStatus(first!.id)).toBe("failed");
    const rows = await api.db.select().from(payouts).where(eq(payouts.merchantId, merchant.id));
    expect(rows.filter((r) => r.replaces === first!.id)).toHaveLength(1);
    const paidTotal = rows.filter((r) => r.status === "paid").reduce((sum, r) => sum + r.amount, 0);
    expect(paidTotal).toBe(10_000 - 320 + 5_000 - 175);
    const [row] = await api.db.select().from(merchants).where(eq(merchants.id, merchant.id));
    expect(row!.requirements).toBeNull();
  }, 120_000);
});

test("the ledger's invariants hold after every test above (docs/reference.md section 18)", async () => {
  expect(await checkLedger(api.db)).toEqual([]);
});
