import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";

import { merchants, paymentMethods } from "@/lib/db/schema";
import { rotateApiKey } from "@/lib/domain/accounts/rotate-api-key";
import { listCustomers } from "@/lib/domain/customers/customers";
import { checkLedger } from "@/lib/ledger/check";

import { startTestApi, type TestApi } from "../helpers/api";
import { approvedMerchant, tokenize } from "../helpers/payments";

// Customers, saved payment methods and merchant-initiated charges (docs/reference.md section 21):
// CRUD and filters, consent kept as shown, one method per card per customer, charges of a saved
// method (402 with the failed charge on a decline, idempotent), and another ISV's objects 404.

let api: TestApi;
let isv: Awaited<ReturnType<TestApi["newIsv"]>>;
let other: Awaited<ReturnType<TestApi["newIsv"]>>;
let merchant: Awaited<ReturnType<typeof approvedMerchant>>;
let sibling: Awaited<ReturnType<typeof approvedMerchant>>;
let own: string;

beforeAll(async () => {
  api = await startTestApi({ worker: true });
  [isv, other] = await Promise.all([api.newIsv("Gym ISV"), api.newIsv("Other ISV")]);
  [merchant, sibling] = await Promise.all([approvedMerchant(api, isv), approvedMerchant(api, isv)]);
  const [row] = await api.db.select().from(merchants).where(eq(merchants.id, merchant.id));
  const rotated = await rotateApiKey(api.db, row!.merchantAccountId!, false);
  own = `Basic ${Buffer.from(`${rotated.account_sid}:${rotated.secret_key}`).toString("base64")}`;
}, 120_000);
afterAll(() => api.close());

const call = (method: string, path: string, body?: unknown, auth = isv.auth, headers?: Record<string, string>) =>
  api.call(method, path, { auth, body, headers });
const newCustomer = async (body: Record<string, unknown> = {}) => {
  const res = await call("POST", "/v1/customers", { merchant_id: merchant.id, name: "Dana Whitfield", ...body });
  expect(res.status, res.text).toBe(200);
  return res.json;
};
const save = (customer: string, token: string, consent: Record<string, unknown> = { accepted: true }) =>
  call("POST", "/v1/payment_methods", { token, customer, consent });

describe("customers", () => {
  test("created, read, listed by merchant and e-mail (any case), updated (metadata merges), deleted", async () => {
    const made = await newCustomer({ email: "Dana@Example.com", phone: "(415) 555-0123", metadata: { member: "G-1" } });
    expect(made).toMatchObject({
      object: "customer",
      merchant_id: merchant.id,
      name: "Dana Whitfield",
      email: "Dana@Example.com",
      phone: "+14155550123",
      metadata: { member: "G-1" },
    });
    expect(made.id).toMatch(/^cus_/);
    expect((await call("GET", `/v1/customers/${made.id}`)).json).toEqual(made);
    const siblings = await call("POST", "/v1/customers", { merchant_id: sibling.id, email: "dana@example.com" });
    const byEmail = (await call("GET", "/v1/customers?email=DANA@example.COM")).json.data.map((c: any) => c.id);
    expect(byEmail).toEqual([siblings.json.id, made.id]);
    const mine = (await call("GET", `/v1/customers?merchant_id=${merchant.id}&email=dana@example.com`)).json.data;
    expect(mine.map((c: any) => c.id)).toEqual([made.id]);

    const updated = await call("POST", `/v1/customers/${made.id}`, {
      phone: null,
      metadata: { member: "", plan: "gold" },
    });
    expect(updated.json).toMatchObject({ phone: null, name: "Dana Whitfield", metadata: { plan: "gold" } });
    expect((await call("POST", `/v1/customers/${made.id}`, { phone: "555" })).json.error).toMatchObject({
      code: "parameter_invalid",
      param: "phone",
    });
    expect((await call("POST", "/v1/customers", { merchant_id: merchant.id, nickname: "D" })).json.error.code).toBe(
      "parameter_unknown",
    );

    const token = await tokenize(api, merchant.publishableKey);
    const method = (await save(made.id, token)).json;
    const deleted = await call("DELETE", `/v1/customers/${made.id}`);
    expect(deleted.json).toEqual({ object: "customer", id: made.id, deleted: true });
    expect((await call("GET", `/v1/customers/${made.id}`)).status).toBe(404);
    expect((await call("GET", `/v1/payment_methods/${method.id}`)).json).toMatchObject({
      status: "detached",
      customer: null,
    });
    expect((await call("DELETE", `/v1/customers/${made.id}`)).status).toBe(404);
  });

  test("a merchant's own key makes and reads its own customers only", async () => {
    const mine = await call("POST", "/v1/customers", { email: "own@example.com" }, own);
    expect(mine.json.merchant_id).toBe(merchant.id);
    const theirs = await call("POST", "/v1/customers", { merchant_id: sibling.id, name: "X" });
    expect((await call("GET", `/v1/customers/${theirs.json.id}`, undefined, own)).status).toBe(404);
    expect((await call("POST", "/v1/customers", { merchant_id: sibling.id }, own)).status).toBe(404);
  });

  test("the home's search: a part of the name or the address, any case; % and _ are letters; one merchant's only", async () => {
    const made = async (body: Record<string, unknown>) =>
      (await call("POST", "/v1/customers", { merchant_id: sibling.id, ...body })).json.id as string;
    const gym = await made({ name: "Quentin 100% Fit", email: "quentin@gym.example" });
    const bob = await made({ name: "Bob Quist", email: "bob_q@mail.example" });
    await made({ name: "Carla", email: "carla@mail.example" });
    await call("POST", "/v1/customers", { merchant_id: merchant.id, name: "Quentin elsewhere" });
    const scope = { isvAccountId: isv.account_id, merchantId: sibling.id };
    const found = async (search: string) =>
      (await listCustomers(api.db, scope, { limit: 25, search })).rows.map((c) => c.id);
    expect(await found("quent")).toEqual([gym]);
    expect(await found("100%")).toEqual([gym]);
    expect(await found("GYM.EX")).toEqual([gym]);
    expect(await found("_q@")).toEqual([bob]);
    expect(await found("b_b")).toEqual([]);
    expect(await found("%")).toEqual([gym]);
  });
});

describe("saved payment methods", () => {
  test("a card saved with the consent's words, once per card; bad consent or token refused and nothing saved", async () => {
    const customer = await newCustomer();
    const refused = await save(customer.id, await tokenize(api, merchant.publishableKey), { accepted: false });
    expect(refused.status).toBe(400);
    expect(refused.json.error.param).toBe("consent.accepted");
    const siblingToken = await tokenize(api, sibling.publishableKey);
    expect((await save(customer.id, siblingToken)).json.error.code).toBe("token_invalid");

    const first = await save(customer.id, await tokenize(api, merchant.publishableKey, "4242424242424242"), {
      accepted: true,
      locale: "es",
    });
    expect(first.status, first.text).toBe(200);
    expect(first.json).toMatchObject({
      object: "payment_method",
      type: "card",
      customer: customer.id,
      status: "active",
      card: { brand: "visa", last4: "4242", funding: "credit", expired: false },
      consent: { locale: "es", source: "api", ip_address: expect.any(String) },
    });
    expect(first.json.consent.text).toMatch(/^Guardar esta tarjeta para pagos futuros a /);
    const again = await save(customer.id, await tokenize(api, merchant.publishableKey, "4242424242424242"));
    expect(again.json.id).toBe(first.json.id);
    expect(again.json.consent.locale).toBe("en");
    const second = await save(customer.id, await tokenize(api, merchant.publishableKey, "5555555555554444"));
    const listed = (await call("GET", `/v1/payment_methods?customer=${customer.id}`)).json.data.map((m: any) => m.id);
    expect(listed).toEqual([second.json.id, first.json.id]);

    expect((await call("POST", `/v1/payment_methods/${second.json.id}/detach`)).json.status).toBe("detached");
    expect((await call("POST", `/v1/payment_methods/${second.json.id}/detach`)).status).toBe(409);
    expect((await call("GET", `/v1/payment_methods?customer=${customer.id}`)).json.data).toHaveLength(1);

    // The card numbers are in the processor's vault only.
    for (const table of ["payment_methods", "customers", "charges"]) {
      const dump = (await api.db.execute(
        sql.raw(`select coalesce(string_agg(t::text, '\n'), '') as text from "${table}" t`),
      )) as any;
      const text: string = (dump.rows ?? dump)[0].text;
      expect(text, table).not.toContain("4242424242424242");
      expect(text, table).not.toContain("5555555555554444");
    }
  });
});

describe("the pay page's box", () => {
  test("a request for a customer, paid with the box ticked, keeps the card with the page's words; a decline or no box keeps none", async () => {
    const customer = await newCustomer();
    const request = async () => {
      const made = await call("POST", "/v1/scan_to_pay", {
        merchant_id: merchant.id,
        amount: 1_200,
        customer: customer.id,
      });
      expect(made.json.customer).toBe(customer.id);
      return made.json.id as string;
    };
    const pay = async (id: string, card: string, more: Record<string, unknown>) =>
      api.call("POST", `/v1/payment_requests/${id}/pay`, {
        body: { token: await tokenize(api, merchant.publishableKey, card), ...more },
      });
    const methods = async () => (await call("GET", `/v1/payment_methods?customer=${customer.id}`)).json.data;
    const first = await request();
    const declined = await pay(first, "4000000000000002", { save_payment_method: { accepted: true } });
    expect(declined.json.outcome).toBe("declined");
    expect(declined.json.payment_request.customer).toBeUndefined();
    expect(await pay(first, "5555555555554444", {})).toMatchObject({ status: 200 });
    expect(await methods()).toEqual([]);

    const paid = await pay(await request(), "4242424242424242", {
      save_payment_method: { accepted: true },
      locale: "es",
    });
    expect(paid.json.outcome).toBe("paid");
    const [kept] = await methods();
    expect(kept).toMatchObject({ card: { last4: "4242" }, consent: { source: "pay_page", locale: "es" } });
    expect(kept.consent.text).toMatch(/^Guardar esta tarjeta para pagos futuros a /);

    // A request without a customer refuses the box before the token is spent; another merchant's customer is 404.
    const plain = (await call("POST", "/v1/scan_to_pay", { merchant_id: merchant.id, amount: 500 })).json.id;
    const token = await tokenize(api, merchant.publishableKey);
    const refused = await api.call("POST", `/v1/payment_requests/${plain}/pay`, {
      body: { token, save_payment_method: { accepted: true } },
    });
    expect(refused.json.error).toMatchObject({ code: "parameter_not_allowed", param: "save_payment_method" });
    expect((await api.call("POST", `/v1/payment_requests/${plain}/pay`, { body: { token } })).json.outcome).toBe(
      "paid",
    );
    const wrong = await call("POST", "/v1/scan_to_pay", {
      merchant_id: sibling.id,
      amount: 500,
      customer: customer.id,
    });
    expect(wrong.json.error).toMatchObject({ code: "resource_missing", param: "customer" });
  });
});

describe("charges of a saved method", () => {
  test("charged without the customer: the charge names them; a retry with its key charges once", async () => {
    const customer = await newCustomer({ email: "payer@example.com" });
    const method = (await save(customer.id, await tokenize(api, merchant.publishableKey))).json;
    const body = {
      merchant_id: merchant.id,
      customer: customer.id,
      payment_method: method.id,
      amount: 4_500,
      tax: 360,
    };
    const key = { "Idempotency-Key": `mit-${customer.id}` };
    const charged = await call("POST", "/v1/charges", body, isv.auth, key);
    expect(charged.status, charged.text).toBe(200);
    expect(charged.json).toMatchObject({
      object: "charge",
      status: "AUTHORIZED",
      payment_type: "MANUAL",
      amount_captured: 4_860,
      customer: customer.id,
      payment_method_id: method.id,
      card_last_4: "4242",
    });
    const replay = await call("POST", "/v1/charges", body, isv.auth, key);
    expect(replay.headers.get("idempotent-replayed")).toBe("true");
    expect(replay.json.id).toBe(charged.json.id);
    const request = (await call("GET", `/v1/payment_requests/${charged.json.payment_request_id}`)).json;
    expect(request).toMatchObject({ status: "PAID", customer: customer.id, charge_id: charged.json.id });
    const charges = (await call("GET", `/v1/charges?merchant_id=${merchant.id}`)).json.data;
    expect(charges.filter((c: any) => c.payment_method_id === method.id)).toHaveLength(1);
    // The merchant's own key charges its own customer too.
    const byOwn = await call("POST", "/v1/charges", { ...body, merchant_id: undefined, amount: 100 }, own);
    expect(byOwn.status, byOwn.text).toBe(200);
    expect(byOwn.json.costs).toBeUndefined();
  });

  test("a decline answers 402 with the failed charge and cancels its request; a detached or expired method is refused before the network", async () => {
    const customer = await newCustomer();
    const poor = (await save(customer.id, await tokenize(api, merchant.publishableKey, "4000000000009995"))).json;
    const declined = await call("POST", "/v1/charges", {
      merchant_id: merchant.id,
      customer: customer.id,
      payment_method: poor.id,
      amount: 2_000,
    });
    expect(declined.status).toBe(402);
    expect(declined.json.error).toMatchObject({
      type: "card_error",
      code: "card_declined",
      decline_code: "insufficient_funds",
      message: "The card was declined: insufficient funds",
      charge: {
        status: "FAILED",
        failure_reason: "insufficient_funds",
        customer: customer.id,
        payment_method_id: poor.id,
      },
    });
    const request = (await call("GET", `/v1/payment_requests/${declined.json.error.charge.payment_request_id}`)).json;
    expect(request.status).toBe("CANCELED");

    const good = (await save(customer.id, await tokenize(api, merchant.publishableKey))).json;
    await api.db.update(paymentMethods).set({ expYear: 2020 }).where(eq(paymentMethods.id, good.id));
    expect((await call("GET", `/v1/payment_methods/${good.id}`)).json).toMatchObject({
      status: "expired",
      card: { expired: true },
    });
    const before = (await call("GET", `/v1/charges?merchant_id=${merchant.id}&limit=100`)).json.data.length;
    const expired = await call("POST", "/v1/charges", { customer: customer.id, payment_method: good.id, amount: 100 });
    expect(expired.json.error).toMatchObject({ code: "payment_method_expired", param: "payment_method" });
    await call("POST", `/v1/payment_methods/${poor.id}/detach`);
    const detached = await call("POST", "/v1/charges", { customer: customer.id, payment_method: poor.id, amount: 100 });
    expect(detached.json.error.code).toBe("payment_method_unusable");
    const elsewhere = await newCustomer();
    const notTheirs = await call("POST", "/v1/charges", {
      customer: elsewhere.id,
      payment_method: good.id,
      amount: 100,
    });
    expect(notTheirs.json.error.code).toBe("payment_method_unusable");
    expect((await call("GET", `/v1/charges?merchant_id=${merchant.id}&limit=100`)).json.data.length).toBe(before);
  });

  test("a merchant's saved methods declined 20 times in an hour: the 21st charge is refused before the network", async () => {
    const customer = (await call("POST", "/v1/customers", { merchant_id: sibling.id, name: "Tester" })).json;
    // Three declining cards, so that the per-card limit (10 a day) is not the one reached.
    const methods: string[] = [];
    for (const card of ["4000000000000002", "4000000000009987", "4000000000009979"])
      methods.push((await save(customer.id, await tokenize(api, sibling.publishableKey, card))).json.id);
    const charge = (i: number) =>
      call("POST", "/v1/charges", { customer: customer.id, payment_method: methods[i % 3], amount: 100 + i });
    for (let i = 0; i < 20; i++) expect((await charge(i)).status).toBe(402);
    const count = async () => (await call("GET", `/v1/charges?merchant_id=${sibling.id}&limit=100`)).json.data.length;
    const before = await count();
    const refused = await charge(20);
    expect(refused.status).toBe(429);
    expect(refused.json.error.code).toBe("too_many_declines");
    expect(refused.headers.get("retry-after")).toBe("900");
    expect(await count()).toBe(before);
  });

  test("another ISV's customers, methods and charges of them are 404", async () => {
    const customer = await newCustomer();
    const method = (await save(customer.id, await tokenize(api, merchant.publishableKey))).json;
    const as = (m: string, p: string, body?: unknown) => call(m, p, body, other.auth);
    expect((await as("GET", `/v1/customers/${customer.id}`)).status).toBe(404);
    expect((await as("POST", `/v1/customers/${customer.id}`, { name: "Mallory" })).status).toBe(404);
    expect((await as("DELETE", `/v1/customers/${customer.id}`)).status).toBe(404);
    expect((await as("GET", `/v1/customers?merchant_id=${merchant.id}`)).status).toBe(404);
    expect((await as("GET", "/v1/customers")).json.data).toEqual([]);
    expect((await as("GET", `/v1/payment_methods/${method.id}`)).status).toBe(404);
    expect((await as("GET", `/v1/payment_methods?customer=${customer.id}`)).status).toBe(404);
    expect((await as("POST", `/v1/payment_methods/${method.id}/detach`)).status).toBe(404);
    const charge = await as("POST", "/v1/charges", { customer: customer.id, payment_method: method.id, amount: 100 });
    expect(charge.status).toBe(404);
    expect((await call("GET", `/v1/customers/${customer.id}`)).json.name).toBe("Dana Whitfield");
    expect((await call("GET", `/v1/payment_methods/${method.id}`)).json.status).toBe("active");
  });

  test("the ledger's invariants hold", async () => {
    expect(await checkLedger(api.db)).toEqual([]);
  });
});
