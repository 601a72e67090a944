import { asc, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";

import { cardTokens, charges, events, jobs } from "@/lib/db/schema";
import { checkLedger } from "@/lib/ledger/check";

import { startTestApi, type TestApi } from "../helpers/api";
import { settlementThatTook } from "../helpers/ledger";
import { approvedMerchant, tokenize } from "../helpers/payments";
import { until } from "../helpers/until";

// Bank payments (ACH, docs/reference.md section 13): bank accounts tokenized like cards, invoices and
// manual requests paid by bank, ACH fees, settlement, returns and their fees on the statement.

let api: TestApi;
let isv: Awaited<ReturnType<TestApi["newIsv"]>>;
let merchant: Awaited<ReturnType<typeof approvedMerchant>>;
let cardOnly: Awaited<ReturnType<typeof approvedMerchant>>;
const period = new Date().toISOString().slice(0, 7);

const post = (path: string, body: unknown, auth = isv.auth) => api.call("POST", path, { auth, body });
const get = (path: string, auth = isv.auth) => api.call("GET", path, { auth });
const bank = (account_number: string, more: Record<string, unknown> = {}) => ({
  bank_account: {
    routing_number: "021000021",
    account_number,
    account_holder_name: "Ana Ruiz",
    account_type: "checking",
    ...more,
  },
});
const tokenizeBank = (key: string, body: unknown) => api.call("POST", "/v1/tokens", { auth: `Bearer ${key}`, body });

async function payInvoiceByBank(
  amount: number,
  account = "000123456789",
  payee: { id: string; publishableKey: string } = merchant,
) {
  const pr = (await post("/v1/invoice", { merchant_id: payee.id, amount, sendVia: "none" })).json;
  const token = (await tokenizeBank(payee.publishableKey, bank(account))).json.id;
  const res = await api.call("POST", `/v1/payment_requests/${pr.id}/pay`, {
    body: { token, ach_authorization: { accepted: true } },
  });
  expect(res.status).toBe(200);
  return { request: pr, ...res.json };
}

beforeAll(async () => {
  api = await startTestApi({ worker: true });
  isv = await api.newIsv("ACH ISV");
  // The ISV's default types are flat_rate and ach: this merchant takes bank payments.
  merchant = await approvedMerchant(api, isv);
  cardOnly = await approvedMerchant(api, isv, (a) => {
    a.capabilities = { types: ["flat_rate"] };
  });
}, 120_000);
afterAll(() => api.close());

describe("ACH payments", () => {
  test("a bank account becomes a token: ABA-checked, the account number never kept", async () => {
    const res = await tokenizeBank(merchant.publishableKey, bank("000123456789"));
    expect(res.status).toBe(200);
    expect(res.json).toEqual({
      object: "token",
      id: expect.stringMatching(/^tok_/),
      type: "bank_account",
      bank_account: {
        bank_name: "JPMorgan Chase",
        last4: "6789",
        account_type: "checking",
        account_holder_name: "Ana Ruiz",
        fingerprint: expect.any(String),
      },
      expires_at: expect.any(String),
    });
    const [row] = await api.db.select().from(cardTokens).where(eq(cardTokens.id, res.json.id));
    expect(JSON.stringify(row)).not.toContain("000123456789");
    // The same account gives the same fingerprint; another account another.
    const again = (await tokenizeBank(merchant.publishableKey, bank("000123456789"))).json;
    const other = (await tokenizeBank(merchant.publishableKey, bank("000123456780"))).json;
    expect(again.bank_account.fingerprint).toBe(res.json.bank_account.fingerprint);
    expect(other.bank_account.fingerprint).not.toBe(res.json.bank_account.fingerprint);
  });

  test("bad accounts are refused field by field; nothing is kept", async () => {
    const before = (await api.db.select({ n: sql<number>`count(*)::int` }).from(cardTokens))[0]!.n;
    const checksum = await tokenizeBank(merchant.publishableKey, bank("000123456789", { routing_number: "021000022" }));
    expect(checksum.status).toBe(400);
    expect(checksum.json.error.errors).toEqual([
      {
        param: "bank_account.routing_number",
        code: "bank_account_invalid",
        message: "This routing number is not valid (its check digit does not match)",
      },
    ]);
    const several = await tokenizeBank(
      merchant.publishableKey,
      bank("12", { routing_number: "1234", account_holder_name: "  " }),
    );
    expect(several.json.error.errors.map((e: any) => e.param)).toEqual([
      "bank_account.routing_number",
      "bank_account.account_number",
      "bank_account.account_holder_name",
    ]);
    const type = await tokenizeBank(merchant.publishableKey, bank("000123456789", { account_type: "brokerage" }));
    expect(type.status).toBe(400);
    expect(type.json.error.errors[0].param).toBe("bank_account.account_type");
    const both = await tokenizeBank(merchant.publishableKey, {
      ...bank("000123456789"),
      card: { number: "4242424242424242", exp_month: 1, exp_year: 2040, cvc: "123" },
    });
    expect(both.status).toBe(400);
    expect((await tokenizeBank(merchant.publishableKey, {})).json.error.param).toBe("card");
    // A merchant without ach in its types takes cards only.
    const notEnabled = await tokenizeBank(cardOnly.publishableKey, bank("000123456789"));
    expect(notEnabled.status).toBe(403);
    expect(notEnabled.json.error.code).toBe("ach_not_enabled");
    expect((await api.db.select({ n: sql<number>`count(*)::int` }).from(cardTokens))[0]!.n).toBe(before + 0);
  });

  test("an invoice paid by bank: an ACH charge, its fee by the ACH formula, no card fields", async () => {
    const paid = await payInvoiceByBank(10_000);
    expect(paid.outcome).toBe("paid");
    const charge = (await get(`/v1/charges/${paid.charge.id}`)).json;
    expect(charge).toMatchObject({
      status: "AUTHORIZED",
      payment_method: "ach",
      processor: { processor_type: "ACH" },
      card_entry_method: "MANUAL",
      ach: { last4: "6789", account_type: "checking", bank_name: "JPMorgan Chase" },
      amount_captured: 10_000,
      // $100.00 × 0.50 % + $0.25 = $0.75
      fee: 75,
      net: 9_925,
      fee_details: [{ model: "ach", rate_bps: 50, amount: 75 }],
      returned_at: null,
    });
    for (const field of ["card_last_4", "card_brand", "card_expiration_date", "card_type"])
      expect(charge).not.toHaveProperty(field);
    expect(JSON.stringify(charge)).not.toContain("000123456789");
    const pr = (await get(`/v1/payment_requests/${paid.request.id}`)).json;
    expect(pr).toMatchObject({ status: "PAID", charge_id: charge.id });
  });

  test("a bank debit needs the payer's authorization: refused without it (the token unspent); kept on the charge with its text, version, time and address", async () => {
    const pr = (await post("/v1/invoice", { merchant_id: merchant.id, amount: 4_321, sendVia: "none" })).json;
    const token = (await tokenizeBank(merchant.publishableKey, bank("000123456789"))).json.id;
    for (const body of [
      { token },
      { token, ach_authorization: { accepted: false } },
      { token, ach_authorization: {} },
    ]) {
      const refused = await api.call("POST", `/v1/payment_requests/${pr.id}/pay`, { body });
      expect(refused.status).toBe(400);
      expect(refused.json.error.param).toMatch(/^ach_authorization/);
    }
    expect((await api.call("POST", `/v1/payment_requests/${pr.id}/pay`, { body: { token } })).json.error.code).toBe(
      "ach_authorization_required",
    );
    expect((await get(`/v1/payment_requests/${pr.id}`)).json).toMatchObject({ status: "PENDING", charge_id: null });
    const before = Date.now();
    const paid = await api.call("POST", `/v1/payment_requests/${pr.id}/pay`, {
      body: { token, ach_authorization: { accepted: true, locale: "es" } },
    });
    expect(paid.json.outcome).toBe("paid");
    const charge = (await get(`/v1/charges/${paid.json.charge.id}`)).json;
    expect(charge.ach.authorization).toMatchObject({
      version: "2026-11-24",
      locale: "es",
      ip_address: "127.0.0.1",
    });
    expect(charge.ach.authorization.text).toMatch(
      /^Autorizo a .+ a debitar \$43\.21 una sola vez de la cuenta bancaria/,
    );
    expect(Date.parse(charge.ach.authorization.accepted_at)).toBeGreaterThanOrEqual(before - 1000);
    // A card never carries one.
    const card = (await post("/v1/scan_to_pay", { merchant_id: merchant.id, amount: 500 })).json;
    const byCard = await api.call("POST", `/v1/payment_requests/${card.id}/pay`, {
      body: { token: await tokenize(api, merchant.publishableKey) },
    });
    expect((await get(`/v1/charges/${byCard.json.charge.id}`)).json).not.toHaveProperty("ach");
  });

  test("bank payments pay invoices and manual requests only; a card-only merchant's page refuses them", async () => {
    const scan = (await post("/v1/scan_to_pay", { merchant_id: merchant.id, amount: 500 })).json;
    const token = (await tokenizeBank(merchant.publishableKey, bank("000123456789"))).json.id;
    const refused = await api.call("POST", `/v1/payment_requests/${scan.id}/pay`, { body: { token } });
    expect(refused.status).toBe(400);
    expect(refused.json.error).toMatchObject({ code: "payment_method_not_allowed", param: "token" });
    // The refusal spent nothing: the token pays a manual request.
    const manual = (await post("/v1/manual", { merchant_id: merchant.id, amount: 700 })).json;
    const paid = await api.call("POST", `/v1/payment_requests/${manual.id}/pay`, {
      body: { token, ach_authorization: { accepted: true } },
    });
    expect(paid.json).toMatchObject({ outcome: "paid", charge: { status: "AUTHORIZED" } });
    expect((await get(`/v1/payment_requests/${scan.id}`)).json.status).toBe("PENDING");
  });

  test("sandbox 000111111116 is declined at once (insufficient_funds); the request stays payable", async () => {
    const declined = await payInvoiceByBank(2_000, "000111111116");
    expect(declined.outcome).toBe("declined");
    expect(declined.charge).toMatchObject({ status: "FAILED" });
    expect((await get(`/v1/charges/${declined.charge.id}`)).json).toMatchObject({
      status: "FAILED",
      failure_reason: "insufficient_funds",
      payment_method: "ach",
      fee: null,
      amount_captured: 0,
    });
    const types = (await api.db.select().from(events).where(eq(events.objectId, declined.charge.id))).map(
      (e) => e.type,
    );
    expect(types).toEqual(["charge.failed"]);
    expect((await get(`/v1/payment_requests/${declined.request.id}`)).json.status).toBe("PENDING");
  });

  test("sandbox 000333333335: returned, taken back, then the bank reverses its return: SETTLED again, paid back, the reversal fee charged", async () => {
    const paid = await payInvoiceByBank(2_500, "000333333335");
    const first = (await post("/v1/test_helpers/settlement/run", { merchant_id: merchant.id })).json.data[0];
    expect((await get(`/v1/charges/${paid.charge.id}`)).json).toMatchObject({
      status: "SETTLED",
      settlement_id: first.id,
    });
    await until(
      async () => (await get(`/v1/charges/${paid.charge.id}`)).json.status,
      (s) => s === "RETURNED",
      20_000,
      "the return",
    );
    // Taken back by the settlement that follows (before the bank's reversal, 5 s later in sandbox).
    const taken = (await post("/v1/test_helpers/settlement/run", { merchant_id: merchant.id })).json.data[0];
    expect(taken).toMatchObject({ return_count: 1, returns: 2_500, reversal_count: 0 });
    const reversed = await until(
      async () => (await get(`/v1/charges/${paid.charge.id}`)).json,
      (c) => c.status === "SETTLED",
      20_000,
      "the reversal",
    );
    expect(reversed).toMatchObject({
      status: "SETTLED",
      returned_at: expect.any(Number),
      return_reversed_at: expect.any(Number),
      failure_reason: null,
    });
    const types = (
      await api.db.select().from(events).where(eq(events.objectId, paid.charge.id)).orderBy(asc(events.seq))
    ).map((e) => e.type);
    expect(types.filter((t) => t === "charge.returned" || t === "charge.return_reversed")).toEqual([
      "charge.returned",
      "charge.return_reversed",
    ]);
    // Paid back once: the 25.00 the return's settlement took back (its net, -25.00, carried in here)
    // comes back, so this settlement nets to nothing.
    const back = (await post("/v1/test_helpers/settlement/run", { merchant_id: merchant.id })).json.data;
    expect(taken.net).toBe(-2_500);
    expect(back).toEqual([
      expect.objectContaining({
        charge_count: 0,
        return_count: 0,
        reversal_count: 1,
        reversals: 2_500,
        carried_in: -2_500,
        net: 0,
      }),
    ]);
    expect((await post("/v1/test_helpers/settlement/run", { merchant_id: merchant.id })).json.data).toHaveLength(0);
  }, 60_000);

  test("sandbox 000222222227 settles, is returned (charge.returned), the next settlement takes it back and the statement charges the return fee", async () => {
    const returned = await payInvoiceByBank(4_000, "000222222227");
    const kept = await payInvoiceByBank(1_500);
    const card = (await post("/v1/scan_to_pay", { merchant_id: merchant.id, amount: 1_000 })).json;
    await api.call("POST", `/v1/payment_requests/${card.id}/pay`, {
      body: { token: await tokenize(api, merchant.publishableKey) },
    });

    const run = await post("/v1/test_helpers/settlement/run", { merchant_id: merchant.id });
    expect(run.status).toBe(200);
    const first = run.json.data[0];
    expect(first).toMatchObject({ return_count: 0, returns: 0 });
    expect((await get(`/v1/charges/${returned.charge.id}`)).json.status).toBe("SETTLED");
    const [job] = await api.db
      .select()
      .from(jobs)
      .where(eq(jobs.id, `job_ach_returns_${first.id}`));
    expect(job).toMatchObject({ type: "ach_returns", payload: { settlement_id: first.id } });
    // Asked a moment after the settlement (the sandbox bank answers at once).
    expect(job!.runAt.getTime() - first.created_at).toBeGreaterThanOrEqual(1_000);

    // The bank's answer (the worker runs the ach_returns job a moment after settlement).
    const after = await until(
      async () => (await get(`/v1/charges/${returned.charge.id}`)).json,
      (c) => c.status === "RETURNED",
      20_000,
      "the ACH return",
    );
    expect(after).toMatchObject({
      status: "RETURNED",
      failure_reason: "insufficient_funds",
      returned_at: expect.any(Number),
    });
    expect((await get(`/v1/charges/${kept.charge.id}`)).json.status).toBe("SETTLED");
    const returnedEvents = await api.db.select().from(events).where(eq(events.objectId, returned.charge.id));
    expect(returnedEvents.filter((e) => e.type === "charge.returned")).toHaveLength(1);

    // A returned charge cannot be refunded.
    const refund = await post("/v1/refunds", { charge_id: returned.charge.id, amount: 100 });
    expect(refund.status).toBe(409);
    expect((await get(`/v1/charges/${returned.charge.id}`)).json.amount_refunded).toBe(0);

    // The next settlement takes the returned $40.00 back, once.
    const next = (await post("/v1/test_helpers/settlement/run", { merchant_id: merchant.id })).json.data;
    expect(next).toHaveLength(1);
    expect(next[0]).toMatchObject({ charge_count: 0, return_count: 1, returns: 4_000, net: -4_000 });
    expect((await post("/v1/test_helpers/settlement/run", { merchant_id: merchant.id })).json.data).toHaveLength(0);
    expect(await settlementThatTook(api.db, "ach_return", returned.charge.id)).toBe(next[0].id);

    // The month's statement: the return, its fee, the ACH daily batch fee and the monthly fee.
    const statement = (await post("/v1/test_helpers/statements/generate", { merchant_id: merchant.id, period })).json;
    const detail = (await get(`/v1/statements/${merchant.id}/${statement.id}`)).json;
    // This month: the two returns (one reversed since, by the test before) and the reversal.
    expect(detail).toMatchObject({ return_count: 2, returns: 6_500, reversal_count: 1, reversals: 2_500 });
    const line = (description: string) => detail.fee_lines.find((l: any) => l.description === description);
    expect(line("ACH return fee")).toEqual({
      kind: "ach_activity",
      model: "ach",
      description: "ACH return fee",
      count: 2,
      amount: 1_000,
    });
    expect(line("ACH return reversal fee")).toEqual({
      kind: "ach_activity",
      model: "ach",
      description: "ACH return reversal fee",
      count: 1,
      amount: 500,
    });
    expect(line("ACH daily batch fee")).toMatchObject({ kind: "ach_activity", count: 1, amount: 10 });
    expect(line("ACH monthly fee")).toMatchObject({ amount: 1_000 });
    const achCharges = (await api.db.select().from(charges).where(eq(charges.merchantId, merchant.id))).filter(
      (c) => c.status !== "FAILED",
    );
    const gross = achCharges.reduce((s, c) => s + c.amountCaptured, 0);
    const processing = achCharges.reduce((s, c) => s + (c.fee ?? 0), 0);
    expect(detail.gross_volume).toBe(gross);
    expect(detail.fees).toBe(
      processing + 1_000 + 500 + 10 + 1_000 + (line("Minimum processing fee top-up")?.amount ?? 0),
    );
    expect(detail.net).toBe(gross - detail.refunds - 6_500 + 2_500 - detail.fees);
    const csv = await fetch(`${api.baseUrl}/v1/statements/${merchant.id}/download/${statement.id}?format=csv`, {
      headers: { authorization: isv.auth },
    });
    const rows = (await csv.text()).trim().split("\n").slice(1);
    expect(rows.filter((r) => r.startsWith("return,"))).toHaveLength(2);
    expect(rows.find((r) => r.startsWith(`return,${returned.charge.id},`))).toContain(",-40.00,");
    expect(rows.filter((r) => r.startsWith("return_reversal,"))).toEqual([expect.stringContaining(",25.00,")]);
  }, 60_000);

  test("an ACH debit cannot be refunded before it clears, so a refund and then a return never pay the customer twice: the settlements net to the cent", async () => {
    const fresh = await approvedMerchant(api, isv);
    const returning = await payInvoiceByBank(3_000, "000222222227", fresh);
    const clean = await payInvoiceByBank(2_000, "000123456789", fresh);
    // Before the debits clear (their banks can still return them): 409, nothing refunded.
    for (const paid of [returning, clean]) {
      const refused = await post("/v1/refunds", { charge_id: paid.charge.id });
      expect(refused.status).toBe(409);
      expect(refused.json.error).toMatchObject({ code: "invalid_state" });
      expect(refused.json.error.message).toContain("has not cleared");
      const charge = (await get(`/v1/charges/${paid.charge.id}`)).json;
      expect(charge).toMatchObject({ amount_refunded: 0, ach: { cleared_at: null } });
    }
    const settle = async () =>
      (await post("/v1/test_helpers/settlement/run", { merchant_id: fresh.id })).json.data as any[];
    const [first] = await settle();
    expect(first).toMatchObject({ charge_count: 2, gross: 5_000, refunds: 0, returns: 0 });

    // The return check: the returning debit comes back, the other clears.
    await until(
      async () => [
        (await get(`/v1/charges/${returning.charge.id}`)).json,
        (await get(`/v1/charges/${clean.charge.id}`)).json,
      ],
      ([r, c]) => r.status === "RETURNED" && c.ach.cleared_at !== null,
      20_000,
      "the return check",
    );
    expect((await post("/v1/refunds", { charge_id: returning.charge.id })).status).toBe(409);
    const refund = await post("/v1/refunds", { charge_id: clean.charge.id, amount: 500 });
    expect(refund.status).toBe(200);
    expect(refund.json).toMatchObject({ amount: 500, status: "succeeded" });

    const [second] = await settle();
    expect(second).toMatchObject({ charge_count: 0, refunds: 500, return_count: 1, returns: 3_000, net: -3_500 });
    expect(await settle()).toEqual([]);
    // To the cent: the merchant keeps the clean debit less its refund, and pays both debits' fees.
    const fees = (await api.db.select().from(charges).where(eq(charges.merchantId, fresh.id))).reduce(
      (sum, c) => sum + (c.fee ?? 0),
      0,
    );
    expect(first.fees).toBe(fees);
    expect(first.net + second.net).toBe(2_000 - 500 - fees);
  }, 60_000);

  test("the fee preview prices ACH too", async () => {
    const res = await post("/v1/fees/preview", { merchant_id: merchant.id, amount: 20_000, payment_method: "ach" });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ fee: 125, net: 19_875, fee_details: [{ model: "ach" }] });
  });
});

describe("routing numbers (GET /v1/routing_numbers/{n})", () => {
  test("the Federal Reserve's directory names the bank", async () => {
    const chase = await get("/v1/routing_numbers/021000021");
    expect(chase.status, chase.text).toBe(200);
    expect(chase.json).toMatchObject({
      object: "routing_number",
      routing_number: "021000021",
      bank_name: "JPMorgan Chase",
      state: "FL",
      directory_version: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
    });
    const small = await get("/v1/routing_numbers/011001726");
    expect(small.json).toMatchObject({ bank_name: "The First National Bank of Ipswich", city: "Lincoln", state: "RI" });
  });
  test("a number failing the checksum is 400, a valid one the directory lacks 404, no credentials or a publishable key 401", async () => {
    const bad = await get("/v1/routing_numbers/021000022");
    expect([bad.status, bad.json.error.code, bad.json.error.param]).toEqual([
      400,
      "parameter_invalid",
      "routing_number",
    ]);
    // 110000000 passes the checksum (a test number) and is in no directory.
    const unknown = await get("/v1/routing_numbers/110000000");
    expect([unknown.status, unknown.json.error.code]).toEqual([404, "resource_missing"]);
    expect((await api.call("GET", "/v1/routing_numbers/021000021")).status).toBe(401);
    expect((await get("/v1/routing_numbers/021000021", `Bearer ${merchant.publishableKey}`)).status).toBe(401);
  });
});

test("the ledger's invariants hold after every test above (docs/reference.md section 18)", async () => {
  expect(await checkLedger(api.db)).toEqual([]);
});
