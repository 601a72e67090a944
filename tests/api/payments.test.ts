import { and, eq, ne, sql } from "drizzle-orm";
import jsQR from "jsqr";
import { PNG } from "pngjs";
import { afterAll, beforeAll, describe, expect, test } from "vitest";

import { cardTokens, charges, events, jobs, paymentRequests } from "@/lib/db/schema";
import { checkLedger } from "@/lib/ledger/check";
import { publicFailureReason } from "@/lib/serializers/pay-result";

import { startTestApi, type TestApi } from "../helpers/api";
import { approvedMerchant, tokenize } from "../helpers/payments";
import { startReceiver } from "../helpers/receiver";
import { verifySignature } from "../helpers/signature";
import { until } from "../helpers/until";

let api: TestApi;
let isv: Awaited<ReturnType<TestApi["newIsv"]>>;
let other: Awaited<ReturnType<TestApi["newIsv"]>>;
let merchant: Awaited<ReturnType<typeof approvedMerchant>>;

beforeAll(async () => {
  api = await startTestApi({ worker: true });
  isv = await api.newIsv("Acme POS");
  other = await api.newIsv("Other ISV");
  merchant = await approvedMerchant(api, isv);
}, 60_000);
afterAll(async () => {
  // No answer of this suite ever carried a full card number.
  const everything = api.seenBodies.join("\n");
  for (const pan of ["4242424242424242", "4000000000000002", "4000056655665556", "5555555555554444", "378282246310005"])
    expect(everything).not.toContain(pan);
  await api.close();
});

const post = (path: string, body: unknown, auth = isv.auth, headers: Record<string, string> = {}) =>
  api.call("POST", path, { auth, body, headers });
const get = (path: string, auth = isv.auth) => api.call("GET", path, { auth });
const scanToPay = (body: Record<string, unknown> = {}) =>
  post("/v1/scan_to_pay", { merchant_id: merchant.id, amount: 1000, ...body });
const pay = (id: string, body: Record<string, unknown>) => api.call("POST", `/v1/payment_requests/${id}/pay`, { body });
const eventsOf = async (objectId: string) =>
  (await api.db.select().from(events).where(eq(events.objectId, objectId))).map((e) => e.type).sort();

describe("creating payment requests", () => {
  test("scan-to-pay with items and taxPercent: amounts, fields, a QR code of the pay page", async () => {
    const res = await scanToPay({
      amount: undefined,
      items: [
        { name: "Tea", quantity: 3, unit_price: 250 },
        { name: "Cake", quantity: 1, unit_price: 400 },
      ],
      taxPercent: "8.25",
      tip: 200,
    });
    expect(res.status).toBe(200);
    const pr = res.json;
    expect(pr).toMatchObject({
      object: "payment_request",
      merchant_id: merchant.id,
      payment_type: "SCAN_TO_PAY",
      status: "PENDING",
      currency: "usd",
      amount: 1150,
      subtotal: 1150,
      tax: 95,
      tax_percent: "8.25",
      tip: 200,
      total: 1445,
      charge_id: null,
      paid_at: null,
      canceled_at: null,
    });
    expect(pr.id).toMatch(/^pr_[0-9A-Za-z]{22}$/);
    expect(pr.pay_url).toBe(`${new URL(pr.pay_url).origin}/pay/${pr.id}`);
    expect(pr.payment_asset_url).toBe(`${new URL(pr.pay_url).origin}/v1/payment_requests/${pr.id}/qr`);
    expect(new Date(pr.expires_at).getTime() - new Date(pr.created_at).getTime()).toBe(7 * 24 * 3600 * 1000);
    expect(await eventsOf(pr.id)).toEqual(["payment_request.created"]);

    // The PNG decodes to the pay page; the SVG is an SVG.
    const png = await fetch(`${api.baseUrl}/v1/payment_requests/${pr.id}/qr`);
    expect(png.headers.get("content-type")).toBe("image/png");
    const image = PNG.sync.read(Buffer.from(await png.arrayBuffer()));
    expect(jsQR(new Uint8ClampedArray(image.data), image.width, image.height)?.data).toBe(pr.pay_url);
    const svg = await fetch(`${api.baseUrl}/v1/payment_requests/${pr.id}/qr?format=svg`);
    expect(svg.headers.get("content-type")).toBe("image/svg+xml");
    expect(await svg.text()).toMatch(/^<svg/);
  });

  test("tax_percent, as the answer spells it, is taken as taxPercent; both must agree", async () => {
    const res = await scanToPay({ amount: 1005, tax_percent: "10" });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ amount: 1005, tax: 101, tax_percent: "10", total: 1106 });
    const both = await scanToPay({ amount: 1005, taxPercent: "10", tax_percent: "10" });
    expect(both.json).toMatchObject({ tax: 101, tax_percent: "10" });
  });

  test.each([
    [{ amount: 1000, taxPercent: "10", tax_percent: "8.25" }, "tax_percent", "parameter_invalid"],
    [{ tax_percent: "101" }, "tax_percent", "parameter_invalid"],
    [{ amount: -1 }, "amount", "parameter_invalid"],
    [{ amount: 10.5 }, "amount", "parameter_invalid"],
    [{ amount: "10" }, "amount", "parameter_invalid"],
    [{ amount: undefined }, "amount", "parameter_missing"],
    [{ amount: 99_999_999, tip: 1 }, "amount", "parameter_invalid"],
    [{ tip: -5 }, "tip", "parameter_invalid"],
    [{ tax: 1.5 }, "tax", "parameter_invalid"],
    [{ taxPercent: "101" }, "taxPercent", "parameter_invalid"],
    [{ taxPercent: 8 }, "taxPercent", "parameter_invalid"],
    [{ amount: 1000, taxPercent: "10", tax: 99 }, "tax", "parameter_invalid"],
    [{ amount: 400, items: [{ name: "Tea", quantity: 2, unit_price: 250 }] }, "amount", "parameter_invalid"],
    [{ amount: undefined, items: [] }, "items", "parameter_invalid"],
    [{ amount: undefined, items: [{ name: "", quantity: 1, unit_price: 1 }] }, "items[0].name", "parameter_invalid"],
    [
      { amount: undefined, items: [{ name: "x".repeat(201), quantity: 1, unit_price: 1 }] },
      "items[0].name",
      "parameter_invalid",
    ],
    [
      { amount: undefined, items: [{ name: "Tea", quantity: 0, unit_price: 1 }] },
      "items[0].quantity",
      "parameter_invalid",
    ],
    [
      { amount: undefined, items: [{ name: "Tea", quantity: 10_001, unit_price: 1 }] },
      "items[0].quantity",
      "parameter_invalid",
    ],
    [
      { amount: undefined, items: [{ name: "Tea", quantity: 1, unit_price: -1 }] },
      "items[0].unit_price",
      "parameter_invalid",
    ],
    [
      { amount: undefined, items: Array.from({ length: 101 }, () => ({ name: "Tea", quantity: 1, unit_price: 1 })) },
      "items",
      "parameter_invalid",
    ],
    [{ surprise: true }, "surprise", "parameter_unknown"],
    [{ merchant_id: undefined }, "merchant_id", "parameter_missing"],
  ])("%j → 400 naming %s, and nothing is created", async (change, param, code) => {
    const before = (await api.db.select({ n: sql<number>`count(*)::int` }).from(paymentRequests))[0]!.n;
    const res = await scanToPay(change);
    expect(res.status).toBe(400);
    expect(res.json.error.param).toBe(param);
    expect(res.json.error.errors.map((e: any) => e.code)).toContain(code);
    expect((await api.db.select({ n: sql<number>`count(*)::int` }).from(paymentRequests))[0]!.n).toBe(before);
  });

  test("an unapproved or deactivated merchant cannot take payments (403); another ISV's merchant is a 404", async () => {
    const fresh = (await post("/v1/merchants", { phone: "+14155550123" })).json;
    const refused = await post("/v1/scan_to_pay", { merchant_id: fresh.id, amount: 100 });
    expect(refused.status).toBe(403);
    expect(refused.json.error.code).toBe("merchant_not_approved");

    const foreign = await post("/v1/scan_to_pay", { merchant_id: merchant.id, amount: 100 }, other.auth);
    expect(foreign.status).toBe(404);
    expect(foreign.json.error.code).toBe("resource_missing");

    const second = await approvedMerchant(api, isv);
    await api.call("PATCH", `/v1/merchants/${second.id}`, { auth: isv.auth, body: { deactivated: true } });
    const deactivated = await post("/v1/manual", { merchant_id: second.id, amount: 100 });
    expect(deactivated.status).toBe(403);
    expect(deactivated.json.error.code).toBe("merchant_not_approved");
    expect(deactivated.json.error.message).toMatch(/deactivated/);
  }, 30_000);

  test("the same Idempotency-Key creates one request", async () => {
    const key = `idem-${Date.now()}`;
    const first = await post(
      "/v1/manual",
      { merchant_id: merchant.id, amount: 4200, description: "Phone order" },
      isv.auth,
      { "idempotency-key": key },
    );
    const again = await post(
      "/v1/manual",
      { merchant_id: merchant.id, amount: 4200, description: "Phone order" },
      isv.auth,
      { "idempotency-key": key },
    );
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(again.json.id).toBe(first.json.id);
    expect(first.json).toMatchObject({ payment_type: "MANUAL", description: "Phone order", amount: 4200, total: 4200 });
  });
});

describe("invoices", () => {
  const invoice = (body: Record<string, unknown>) =>
    post("/v1/invoice", { merchant_id: merchant.id, amount: 24000, ...body });

  test.each([
    [{ sendVia: "email" }, "email_address", "parameter_missing"],
    [{ sendVia: "text" }, "phone_number", "parameter_missing"],
    [{ sendVia: "both", email_address: "c@example.com" }, "phone_number", "parameter_missing"],
    [{ sendVia: "email", email_address: "c@example.com", send_email: false }, "send_email", "parameter_invalid"],
    [{ sendVia: "email", email_address: "c@example.com", send_sms: true }, "send_sms", "parameter_invalid"],
    [{ sendVia: "text", phone_number: "+15550000000" }, "phone_number", "parameter_invalid"],
    [{ sendVia: "fax" }, "sendVia", "parameter_invalid"],
    [{ send_via: "fax" }, "send_via", "parameter_invalid"],
    [{}, "send_via", "parameter_missing"],
    [{ sendVia: "none", send_via: "email", email_address: "c@example.com" }, "send_via", "parameter_invalid"],
    [{ send_via: "text" }, "phone_number", "parameter_missing"],
  ])("%j → 400 naming %s", async (body, param, code) => {
    const res = await invoice(body);
    expect(res.status).toBe(400);
    expect(res.json.error.param).toBe(param);
    expect(res.json.error.code).toBe(code);
  });

  test("send_via, the answer's spelling, is taken like sendVia; both alike are one choice", async () => {
    const snake = await invoice({ send_via: "email", email_address: "snake@example.com" });
    expect(snake.status, snake.text).toBe(200);
    expect(snake.json).toMatchObject({ send_via: "email" });
    const both = await invoice({ send_via: "none", sendVia: "none" });
    expect(both.status, both.text).toBe(200);
    expect(both.json).toMatchObject({ send_via: "none", sent_at: null });
  });

  test("sendVia both: an e-mail and a text message in the outbox with the pay link; sent_at set", async () => {
    const res = await invoice({
      sendVia: "both",
      send_email: true,
      send_sms: true,
      email_address: "diner@example.com",
      phone_number: "(415) 555-0199",
      amount: undefined,
      items: [{ name: "Catering", quantity: 1, unit_price: 24000 }],
      taxPercent: "8.875",
      description: "Team lunch, 14 November",
    });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({
      payment_type: "INVOICE",
      description: "Team lunch, 14 November",
      tax: 2130,
      total: 26130,
      send_via: "both",
      email_address: "diner@example.com",
      phone_number: "+14155550199",
      viewed_at: null,
    });
    expect(Date.parse(res.json.sent_at)).toBeGreaterThan(Date.now() - 60_000);
    const outbox = (await get("/v1/test_helpers/outbox")).json.data.filter(
      (m: any) => m.kind === "payment_request.invoice" && m.text.includes(res.json.pay_url),
    );
    expect(outbox.map((m: any) => [m.channel, m.to]).sort()).toEqual([
      ["email", "diner@example.com"],
      ["sms", "+14155550199"],
    ]);
    // The e-mail says what it is for, the subtotal, the tax and the total.
    const mail = outbox.find((m: any) => m.channel === "email").text;
    for (const line of ["For: Team lunch, 14 November", "Subtotal: $240.00", "Tax: $21.30", "Total: $261.30"])
      expect(mail).toContain(line);
    expect(outbox.find((m: any) => m.channel === "email").text).toContain("$240.00");
  });

  test("sendVia none sends nothing and leaves sent_at null", async () => {
    const res = await invoice({ sendVia: "none" });
    expect(res.json.sent_at).toBeNull();
    const outbox = (await get("/v1/test_helpers/outbox")).json.data.filter((m: any) => m.text.includes(res.json.id));
    expect(outbox).toEqual([]);
  });
});

describe("tokens", () => {
  test("a card becomes a single-use token bound to the merchant; nothing else opens with the publishable key", async () => {
    const res = await api.call("POST", "/v1/tokens", {
      auth: `Bearer ${merchant.publishableKey}`,
      body: { card: { number: "4242 4242 4242 4242", exp_month: 12, exp_year: 2031, cvc: "123" } },
    });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({
      object: "token",
      card: { brand: "visa", last4: "4242", exp_month: 12, exp_year: 2031, funding: "credit" },
    });
    expect(res.json.id).toMatch(/^tok_/);
    expect(Date.parse(res.json.expires_at) - Date.now()).toBeGreaterThan(29 * 60_000);
    expect(res.text).not.toContain("4242424242424242");
    const debit = await api.call("POST", "/v1/tokens", {
      auth: `Bearer ${merchant.publishableKey}`,
      body: { card: { number: "4000056655665556", exp_month: 1, exp_year: 2032, cvc: "123" } },
    });
    expect(debit.json.card.funding).toBe("debit");
    // The same card, the same fingerprint.
    const again = await api.call("POST", "/v1/tokens", {
      auth: `Bearer ${merchant.publishableKey}`,
      body: { card: { number: "4242424242424242", exp_month: 1, exp_year: 2030, cvc: "999" } },
    });
    expect(again.json.card.fingerprint).toBe(res.json.card.fingerprint);
    expect(again.json.card.fingerprint).not.toBe(debit.json.card.fingerprint);

    expect((await get("/v1/merchants", `Bearer ${merchant.publishableKey}`)).status).toBe(401);
    expect(
      (
        await api.call("POST", "/v1/tokens", {
          auth: "Bearer pk_test_nope",
          body: { card: { number: "4242424242424242", exp_month: 1, exp_year: 2030, cvc: "1" } },
        })
      ).status,
    ).toBe(401);
  });

  test.each([
    [{ number: "4242424242424241" }, ["card.number"]],
    [{ number: "1234" }, ["card.number"]],
    [{ exp_month: 13 }, ["card.exp_month"]],
    [{ exp_month: 1, exp_year: 2020 }, ["card.exp_month"]],
    [{ cvc: "12" }, ["card.cvc"]],
    [{ number: "378282246310005", cvc: "123" }, ["card.cvc"]],
    [{ number: "4242424242424241", cvc: "1" }, ["card.number", "card.cvc"]],
  ])("%j → 400 card_invalid at %j, the number never echoed", async (change, params) => {
    const card = { number: "4242424242424242", exp_month: 12, exp_year: 2031, cvc: "123", ...change };
    const res = await api.call("POST", "/v1/tokens", { auth: `Bearer ${merchant.publishableKey}`, body: { card } });
    expect(res.status).toBe(400);
    expect(res.json.error.errors.map((e: any) => e.param)).toEqual(params);
    expect(res.json.error.code).toBe("card_invalid");
    expect(res.text).not.toContain(card.number);
  });
});

describe("paying", () => {
  test("a token pays a scan-to-pay request: charge AUTHORIZED, request PAID, events, a signed charge.paid webhook", async () => {
    const receiver = await startReceiver();
    const hook = (await post("/v1/webhooks", { url: receiver.url, scopes: ["charge"] })).json;
    try {
      const pr = (await scanToPay({ amount: 1000, tax: 83, tip: 150 })).json;
      const token = await tokenize(api, merchant.publishableKey);
      const res = await pay(pr.id, { token, email: "diner@example.com", phone: "(415) 555-0142" });
      expect(res.status).toBe(200);
      expect(res.json).toMatchObject({
        object: "payment_result",
        outcome: "paid",
        payment_request: { status: "PAID" },
        charge: { status: "AUTHORIZED", amount: 1233, card_brand: "visa", card_last_4: "4242", failure_reason: null },
      });
      const chargeId = res.json.charge.id;
      expect(res.json.payment_request.charge_id).toBe(chargeId);

      const charge = (await get(`/v1/charges/${chargeId}`)).json;
      expect(charge).toMatchObject({
        object: "charge",
        id: chargeId,
        payment_request_id: pr.id,
        payment_type: "SCAN_TO_PAY",
        status: "AUTHORIZED",
        currency: "usd",
        requested_amount: 1233,
        amount_authorized: 1233,
        amount_captured: 1233,
        amount_refunded: 0,
        tip: 150,
        tax: 83,
        card_brand: "visa",
        card_last_4: "4242",
        card_type: "credit",
        card_entry_method: "MANUAL",
        billing_address: { email: "diner@example.com", phone: "+14155550142" },
        failure_reason: null,
        refunds: [],
      });
      expect(charge.merchant.id).toBe(merchant.id);
      expect(charge.merchant.api_key).toMatch(/^\*+.{4}$/);
      expect(charge.merchant.processors.map((p: any) => p.processor_type)).toContain("CREDIT_CARD");
      expect(charge.created_at).toBeGreaterThan(Date.now() - 60_000);
      expect(charge.authorized_at).toBe(charge.created_at);

      const after = (await get(`/v1/payment_requests/${pr.id}`)).json;
      expect(after).toMatchObject({ status: "PAID", charge_id: chargeId });
      expect(await eventsOf(chargeId)).toEqual(["charge.authorized", "charge.paid"]);
      expect(await eventsOf(pr.id)).toEqual(["payment_request.created", "payment_request.paid"]);

      // The webhook's signature, recomputed with node:crypto (not the signing library), and the charge.
      await receiver.waitFor((r) => r.some((x) => JSON.parse(x.body).type === "charge.paid"));
      const delivered = receiver.received.find((x) => JSON.parse(x.body).type === "charge.paid")!;
      expect(verifySignature(hook.secret, delivered)).toBe(true);
      expect(verifySignature(`whsec_${Buffer.from("another secret").toString("base64")}`, delivered)).toBe(false);
      const verified = JSON.parse(delivered.body);
      expect(verified.data.object).toMatchObject({ id: chargeId, status: "AUTHORIZED", amount_captured: 1233 });

      // Paid once: no second payment, and the spent token is refused on another request.
      const again = await pay(pr.id, { token: await tokenize(api, merchant.publishableKey) });
      expect(again.status).toBe(409);
      expect(again.json.error.message).toMatch(/no longer be paid: it is PAID/);
      const other = (await scanToPay()).json;
      const reused = await pay(other.id, { token });
      expect(reused.status).toBe(400);
      expect(reused.json.error).toMatchObject({ code: "token_invalid", param: "token" });
      expect((await get(`/v1/payment_requests/${other.id}`)).json.status).toBe("PENDING");

      // The receipt went to the customer.
      const receipt = (await get("/v1/test_helpers/outbox")).json.data.find(
        (m: any) => m.kind === "charge.receipt" && m.to === "diner@example.com",
      );
      expect(receipt.text).toContain("$12.33");
      expect(receipt.text).toContain(res.json.charge.receipt_number);
    } finally {
      await receiver.close();
      await api.call("DELETE", `/v1/webhooks/${hook.id}`, { auth: isv.auth });
    }
  });

  test("the receipt is in the language the payer read the page in, else the merchant's", async () => {
    const spanish = (await scanToPay()).json;
    expect(
      (
        await pay(spanish.id, {
          token: await tokenize(api, merchant.publishableKey),
          email: "lector@example.com",
          locale: "es",
        })
      ).status,
    ).toBe(200);
    const english = (await scanToPay()).json;
    expect(
      (await pay(english.id, { token: await tokenize(api, merchant.publishableKey), email: "reader@example.com" }))
        .status,
    ).toBe(200);
    const receipts = (await get("/v1/test_helpers/outbox")).json.data.filter((m: any) => m.kind === "charge.receipt");
    const to = (address: string) => receipts.find((m: any) => m.to === address);
    expect(to("lector@example.com")).toMatchObject({ locale: "es" });
    expect(to("lector@example.com").text).toContain("Número de recibo");
    expect(to("reader@example.com").text).toContain("Receipt number");
    expect(to("reader@example.com")).toMatchObject({ locale: "en" });
    expect(
      (await pay((await scanToPay()).json.id, { token: await tokenize(api, merchant.publishableKey), locale: "fr" }))
        .status,
    ).toBe(400);
  });

  test.each([
    ["4000000000000002", "card_declined"],
    ["4000000000009995", "insufficient_funds"],
    ["4000000000009987", "lost_card"],
    ["4000000000009979", "stolen_card"],
    ["4000000000000069", "expired_card"],
    ["4000000000000127", "incorrect_cvc"],
    ["4000000000000119", "processing_error"],
  ])("test card %s declines with %s; the request stays payable", async (number, reason) => {
    const pr = (await scanToPay()).json;
    const res = await pay(pr.id, { token: await tokenize(api, merchant.publishableKey, number) });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({
      outcome: "declined",
      payment_request: { status: "PENDING", charge_id: null },
      // The anonymous payer is told only what helps an honest customer (card testing).
      charge: { status: "FAILED", failure_reason: publicFailureReason(reason) },
    });
    const charge = (await get(`/v1/charges/${res.json.charge.id}`)).json;
    expect(charge).toMatchObject({
      status: "FAILED",
      failure_reason: reason,
      amount_authorized: 0,
      amount_captured: 0,
      requested_amount: 1000,
    });
    expect(await eventsOf(charge.id)).toEqual(["charge.failed"]);
    // And then a good card pays it.
    const retry = await pay(pr.id, { token: await tokenize(api, merchant.publishableKey) });
    expect(retry.json.outcome).toBe("paid");
  });

  test.each([
    ["5555555555554444", "mastercard"],
    ["378282246310005", "amex"],
    ["6011111111111117", "discover"],
  ])("%s approves as %s", async (number, brand) => {
    const pr = (await scanToPay()).json;
    const res = await pay(pr.id, { token: await tokenize(api, merchant.publishableKey, number) });
    expect(res.json).toMatchObject({ outcome: "paid", charge: { card_brand: brand, card_last_4: number.slice(-4) } });
  });

  test("a token of another merchant, an unknown token, and a bad body are refused and change nothing", async () => {
    const second = await approvedMerchant(api, other);
    const foreignToken = await tokenize(api, second.publishableKey);
    const pr = (await scanToPay()).json;
    for (const body of [{ token: foreignToken }, { token: "tok_unknown" }, {}, { token: foreignToken, surprise: 1 }]) {
      const res = await pay(pr.id, body);
      expect(res.status).toBe(400);
    }
    expect((await get(`/v1/payment_requests/${pr.id}`)).json).toMatchObject({ status: "PENDING", charge_id: null });
    expect(await api.db.select().from(charges).where(eq(charges.paymentRequestId, pr.id))).toEqual([]);
    expect((await pay("pr_doesnotexist0000000000", { token: foreignToken })).status).toBe(404);
  }, 30_000);

  test("20 concurrent payments of one request with approving tokens: exactly one charge succeeds", async () => {
    const pr = (await scanToPay()).json;
    const tokens = await Promise.all(Array.from({ length: 20 }, () => tokenize(api, merchant.publishableKey)));
    const results = await Promise.all(tokens.map((token) => pay(pr.id, { token })));
    expect(results.filter((r) => r.status === 200 && r.json.outcome === "paid")).toHaveLength(1);
    for (const r of results.filter((r) => r.status !== 200)) {
      expect(r.status).toBe(409);
      expect(["payment_in_progress", "invalid_state"]).toContain(r.json.error.code);
    }
    const rows = await api.db
      .select()
      .from(charges)
      .where(and(eq(charges.paymentRequestId, pr.id), ne(charges.status, "FAILED")));
    expect(rows).toHaveLength(1);
    expect((await get(`/v1/payment_requests/${pr.id}`)).json.charge_id).toBe(rows[0]!.id);
  });
  // On PGlite the 20 payments above run one statement at a time, so they would pass even with the
  // claim removed or made in JavaScript (read, then write): only the PostgreSQL pass races them. The
  // claim itself is checked below at the level both databases see: its column.

  test("while another attempt holds the claim, a payment is refused (payment_in_progress) before its token is spent; once the claim lapses, it pays", async () => {
    const pr = (await scanToPay()).json;
    // Another attempt is authorizing: the claim it holds (locked_until, the claim's lease).
    await api.db
      .update(paymentRequests)
      .set({ lockedUntil: new Date(Date.now() + 60_000) })
      .where(eq(paymentRequests.id, pr.id));
    const token = await tokenize(api, merchant.publishableKey);
    const refused = await pay(pr.id, { token });
    expect(refused.status).toBe(409);
    expect(refused.json.error.code).toBe("payment_in_progress");
    const [kept] = await api.db.select().from(cardTokens).where(eq(cardTokens.id, token));
    expect(kept!.usedAt).toBeNull();
    expect(await api.db.select().from(charges).where(eq(charges.paymentRequestId, pr.id))).toEqual([]);
    // A cancel waits for the attempt too.
    const cancel = await post(`/v1/payment_requests/${pr.id}/cancel`, {});
    expect(cancel.status).toBe(409);
    expect(cancel.json.error.code).toBe("payment_in_progress");
    // The attempt died without an answer: its lease lapses and the same token pays.
    await api.db
      .update(paymentRequests)
      .set({ lockedUntil: new Date(Date.now() - 1) })
      .where(eq(paymentRequests.id, pr.id));
    const paid = await pay(pr.id, { token });
    expect(paid.json).toMatchObject({ outcome: "paid", payment_request: { status: "PAID" } });
    const [row] = await api.db.select().from(paymentRequests).where(eq(paymentRequests.id, pr.id));
    expect(row).toMatchObject({ status: "PAID", lockedUntil: null });
  });

  test("an expired token pays nothing: 400 token_invalid, the request still PENDING, the token not spent", async () => {
    const pr = (await scanToPay()).json;
    const token = await tokenize(api, merchant.publishableKey);
    const [made] = await api.db.select().from(cardTokens).where(eq(cardTokens.id, token));
    // Tokens live 30 minutes.
    expect(made!.expiresAt.getTime() - made!.createdAt.getTime()).toBe(30 * 60_000);
    await api.db
      .update(cardTokens)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(cardTokens.id, token));
    const res = await pay(pr.id, { token });
    expect(res.status).toBe(400);
    expect(res.json.error).toMatchObject({ code: "token_invalid", param: "token" });
    expect(res.json.error.message).toContain("expired");
    expect((await api.db.select().from(cardTokens).where(eq(cardTokens.id, token)))[0]!.usedAt).toBeNull();
    expect((await get(`/v1/payment_requests/${pr.id}`)).json).toMatchObject({ status: "PENDING", charge_id: null });
    expect(await api.db.select().from(charges).where(eq(charges.paymentRequestId, pr.id))).toEqual([]);
  });

  test("a PAID request cannot be canceled: 409 invalid_state, still PAID, no canceled event", async () => {
    const pr = (await scanToPay()).json;
    await pay(pr.id, { token: await tokenize(api, merchant.publishableKey) });
    const res = await post(`/v1/payment_requests/${pr.id}/cancel`, {});
    expect(res.status).toBe(409);
    expect(res.json.error.code).toBe("invalid_state");
    expect(res.json.error.message).toContain("PAID");
    expect((await get(`/v1/payment_requests/${pr.id}`)).json).toMatchObject({ status: "PAID", canceled_at: null });
    expect(await eventsOf(pr.id)).not.toContain("payment_request.canceled");
  });
});

describe("terminals", () => {
  test("terminal_unknown, terminal_busy, present_card pays; a final request is never paid twice", async () => {
    const unknown = await post("/v1/terminal", { merchant_id: merchant.id, terminal_id: "tml_nope", amount: 500 });
    expect(unknown.status).toBe(400);
    expect(unknown.json.error).toMatchObject({ code: "terminal_unknown", param: "terminal_id" });

    const pr = (
      await post("/v1/terminal", {
        merchant_id: merchant.id,
        terminal_id: merchant.terminalId,
        amount: 2500,
        tax: 206,
        tip: 300,
        signature_required: true,
        debit: true,
      })
    ).json;
    expect(pr).toMatchObject({
      payment_type: "TERMINAL",
      terminal_id: merchant.terminalId,
      signature_required: true,
      debit: true,
      total: 3006,
    });
    expect(new Date(pr.expires_at).getTime() - new Date(pr.created_at).getTime()).toBe(300_000);
    const busy = await post("/v1/terminal", {
      merchant_id: merchant.id,
      terminal_id: merchant.terminalId,
      amount: 100,
    });
    expect(busy.status).toBe(409);
    expect(busy.json.error.code).toBe("terminal_busy");

    const charge = await post(`/v1/test_helpers/terminals/${merchant.terminalId}/present_card`, {
      card_entry_method: "CHIP",
    });
    expect(charge.status).toBe(200);
    expect(charge.json).toMatchObject({
      status: "AUTHORIZED",
      card_entry_method: "CHIP",
      payment_type: "TERMINAL",
      requested_amount: 3006,
      card_last_4: "4242",
    });
    expect((await get(`/v1/payment_requests/${pr.id}`)).json).toMatchObject({
      status: "PAID",
      charge_id: charge.json.id,
    });
    const twice = await post(`/v1/test_helpers/terminals/${merchant.terminalId}/present_card`, {
      card_entry_method: "SWIPE",
    });
    expect(twice.status).toBe(409);
    // The terminal is free again.
    const next = await post("/v1/terminal", {
      merchant_id: merchant.id,
      terminal_id: merchant.terminalId,
      amount: 100,
    });
    expect(next.status).toBe(200);
    await post(`/v1/payment_requests/${next.json.id}/cancel`, {});
  });

  test("debit: false declines a debit card with debit_not_allowed; a credit card then pays", async () => {
    const pr = (
      await post("/v1/terminal", {
        merchant_id: merchant.id,
        terminal_id: merchant.terminalId,
        amount: 800,
        debit: false,
      })
    ).json;
    const declined = await post(`/v1/test_helpers/terminals/${merchant.terminalId}/present_card`, {
      card_entry_method: "SWIPE",
      card_number: "4000056655665556",
    });
    expect(declined.json).toMatchObject({
      status: "FAILED",
      failure_reason: "debit_not_allowed",
      card_type: "debit",
      amount_authorized: 0,
    });
    expect((await get(`/v1/payment_requests/${pr.id}`)).json.status).toBe("PENDING");
    // The same rule on the phone fallback: a debit token is declined too.
    const byPhone = await pay(pr.id, { token: await tokenize(api, merchant.publishableKey, "4000056655665556") });
    expect(byPhone.json).toMatchObject({ outcome: "declined", charge: { failure_reason: "debit_not_allowed" } });
    const paid = await pay(pr.id, { token: await tokenize(api, merchant.publishableKey) });
    expect(paid.json.outcome).toBe("paid");
  });

  test("a terminal request expires at its deadline (payment_request.expired) and frees the terminal", async () => {
    const pr = (
      await post("/v1/terminal", {
        merchant_id: merchant.id,
        terminal_id: merchant.terminalId,
        amount: 700,
        deadline_seconds: 30,
      })
    ).json;
    expect(new Date(pr.expires_at).getTime() - new Date(pr.created_at).getTime()).toBe(30_000);
    // Time passes: the deadline and the expiry job are now.
    await api.db
      .update(paymentRequests)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(paymentRequests.id, pr.id));
    await api.db
      .update(jobs)
      .set({ runAt: new Date() })
      .where(and(eq(jobs.type, "payment_request_expiry"), sql`${jobs.payload}->>'payment_request_id' = ${pr.id}`));
    const expired = await until(
      async () => (await get(`/v1/payment_requests/${pr.id}`)).json,
      (r) => r.status === "EXPIRED",
      10_000,
      "the expiry job",
    );
    expect(expired.status).toBe("EXPIRED");
    expect(await eventsOf(pr.id)).toEqual(["payment_request.created", "payment_request.expired"]);
    const late = await pay(pr.id, { token: await tokenize(api, merchant.publishableKey) });
    expect(late.status).toBe(409);
    expect((await post(`/v1/payment_requests/${pr.id}/cancel`, {})).status).toBe(409);
    const next = await post("/v1/terminal", {
      merchant_id: merchant.id,
      terminal_id: merchant.terminalId,
      amount: 100,
    });
    expect(next.status).toBe(200);
    await post(`/v1/payment_requests/${next.json.id}/cancel`, {});
  });

  test("a request past its deadline cannot be paid even before the expiry job runs", async () => {
    const pr = (await scanToPay()).json;
    await api.db
      .update(paymentRequests)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(paymentRequests.id, pr.id));
    const late = await pay(pr.id, { token: await tokenize(api, merchant.publishableKey) });
    expect(late.status).toBe(409);
    expect(late.json.error.message).toMatch(/EXPIRED/);
  });
});

describe("cancel, read, list, isolation", () => {
  test("cancel: PENDING → CANCELED once; then 409, and no payment", async () => {
    const pr = (await scanToPay()).json;
    const canceled = await post(`/v1/payment_requests/${pr.id}/cancel`, {});
    expect(canceled.json).toMatchObject({ status: "CANCELED" });
    expect(Date.parse(canceled.json.canceled_at)).toBeGreaterThan(0);
    const again = await post(`/v1/payment_requests/${pr.id}/cancel`, {});
    expect(again.status).toBe(409);
    expect(again.json.error.message).toMatch(/CANCELED/);
    expect((await pay(pr.id, { token: await tokenize(api, merchant.publishableKey) })).status).toBe(409);
    expect(await eventsOf(pr.id)).toEqual(["payment_request.canceled", "payment_request.created"]);
  });

  test("another ISV sees none of it: requests, charges, cancel, terminal", async () => {
    const pr = (await scanToPay()).json;
    const paid = await pay(pr.id, { token: await tokenize(api, merchant.publishableKey) });
    for (const path of [`/v1/payment_requests/${pr.id}`, `/v1/charges/${paid.json.charge.id}`]) {
      const res = await get(path, other.auth);
      expect(res.status).toBe(404);
      expect(res.json.error.code).toBe("resource_missing");
    }
    expect((await post(`/v1/payment_requests/${pr.id}/cancel`, {}, other.auth)).status).toBe(404);
    expect(
      (
        await post(
          `/v1/test_helpers/terminals/${merchant.terminalId}/present_card`,
          { card_entry_method: "CHIP" },
          other.auth,
        )
      ).status,
    ).toBe(404);
    expect((await get(`/v1/charges?merchant_id=${merchant.id}`, other.auth)).json.data).toEqual([]);
    expect((await get(`/v1/payment_requests`, other.auth)).json.data.map((r: any) => r.merchant_id)).not.toContain(
      merchant.id,
    );
  });

  test("lists filter and paginate, newest first", async () => {
    const fresh = await api.newIsv("Lister");
    const m = await approvedMerchant(api, fresh);
    const made: string[] = [];
    for (let i = 0; i < 3; i++)
      made.push((await post("/v1/scan_to_pay", { merchant_id: m.id, amount: 100 + i }, fresh.auth)).json.id);
    made.push((await post("/v1/manual", { merchant_id: m.id, amount: 999 }, fresh.auth)).json.id);
    const declined = await pay(made[0]!, { token: await tokenize(api, m.publishableKey, "4000000000000002") });
    const paid = await pay(made[0]!, { token: await tokenize(api, m.publishableKey) });

    const all = (await get("/v1/payment_requests?limit=2", fresh.auth)).json;
    expect(all.data.map((r: any) => r.id)).toEqual([made[3], made[2]]);
    expect(all.has_more).toBe(true);
    const page2 = (await get(`/v1/payment_requests?limit=2&starting_after=${made[2]}`, fresh.auth)).json;
    expect(page2.data.map((r: any) => r.id)).toEqual([made[1], made[0]]);
    expect(page2.has_more).toBe(false);
    expect((await get("/v1/payment_requests?payment_type=MANUAL", fresh.auth)).json.data.map((r: any) => r.id)).toEqual(
      [made[3]],
    );
    expect((await get("/v1/payment_requests?status=PAID", fresh.auth)).json.data.map((r: any) => r.id)).toEqual([
      made[0],
    ]);
    expect((await get("/v1/payment_requests?status=NOPE", fresh.auth)).status).toBe(400);

    const charges = (await get(`/v1/charges?merchant_id=${m.id}`, fresh.auth)).json.data;
    expect(charges.map((c: any) => c.id)).toEqual([paid.json.charge.id, declined.json.charge.id]);
    expect((await get("/v1/charges?status=FAILED", fresh.auth)).json.data.map((c: any) => c.id)).toEqual([
      declined.json.charge.id,
    ]);
    const t = charges[1].created_at;
    expect((await get(`/v1/charges?created[lte]=${t}`, fresh.auth)).json.data.map((c: any) => c.id)).toEqual([
      declined.json.charge.id,
    ]);
    expect((await get(`/v1/charges?created[gte]=${t + 1}`, fresh.auth)).json.data.map((c: any) => c.id)).toEqual(
      charges[0].created_at > t ? [paid.json.charge.id] : [],
    );
    expect((await get("/v1/charges?created[gte]=soon", fresh.auth)).status).toBe(400);
  }, 30_000);
});

describe("the status stream", () => {
  test("announces each change at once, from the instance that made it (another one on PostgreSQL), and ends when paid", async () => {
    // On PostgreSQL a second API process shares the database: the change is made there.
    const other = process.env.DATABASE_URL ? await startTestApi() : api;
    try {
      const pr = (await scanToPay()).json;
      const res = await fetch(`${api.baseUrl}/v1/payment_requests/${pr.id}/stream`);
      expect(res.headers.get("content-type")).toMatch(/^text\/event-stream/);
      const reader = res.body!.getReader();
      let buffer = "";
      const next = async (): Promise<any> => {
        for (;;) {
          const end = buffer.indexOf("\n\n");
          if (end >= 0) {
            const block = buffer.slice(0, end);
            buffer = buffer.slice(end + 2);
            const data = block.split("\n").find((l) => l.startsWith("data:"));
            if (data) return JSON.parse(data.slice(5));
            continue;
          }
          const { value, done } = await reader.read();
          if (done) return null;
          buffer += new TextDecoder().decode(value);
        }
      };
      expect(await next()).toEqual({
        id: pr.id,
        status: "PENDING",
        charge_id: null,
        last_failure_reason: null,
        locked: false,
      });
      // Sooner than the stream's 5-second re-check: the NOTIFY woke it.
      let started = Date.now();
      await other.call("POST", `/v1/payment_requests/${pr.id}/pay`, {
        body: { token: await tokenize(api, merchant.publishableKey, "4000000000000002") },
      });
      expect(await next()).toMatchObject({ status: "PENDING", last_failure_reason: "card_declined" });
      expect(Date.now() - started).toBeLessThan(4000);
      started = Date.now();
      const paid = await other.call("POST", `/v1/payment_requests/${pr.id}/pay`, {
        body: { token: await tokenize(api, merchant.publishableKey) },
      });
      expect(await next()).toEqual({
        id: pr.id,
        status: "PAID",
        charge_id: paid.json.charge.id,
        last_failure_reason: null,
        locked: false,
      });
      expect(Date.now() - started).toBeLessThan(4000);
      expect(await next()).toBeNull(); // final: the stream ends
    } finally {
      if (other !== api) await other.close();
    }
  });
});

describe("card data", () => {
  test("no full card number or CVC anywhere in the database after paying", async () => {
    const pr = (await scanToPay()).json;
    const token = await api.call("POST", "/v1/tokens", {
      auth: `Bearer ${merchant.publishableKey}`,
      body: { card: { number: "5555555555554444", exp_month: 11, exp_year: 2033, cvc: "987" } },
    });
    await pay(pr.id, { token: token.json.id });
    const tables = (await api.db.execute(
      sql`select table_name from information_schema.tables where table_schema = current_schema() and table_type = 'BASE TABLE'`,
    )) as any;
    const names: string[] = (tables.rows ?? tables).map((r: any) => r.table_name);
    expect(names).toContain("card_tokens");
    for (const name of names) {
      const dump = (await api.db.execute(
        sql.raw(`select coalesce(string_agg(t::text, '\n'), '') as text from "${name}" t`),
      )) as any;
      const text: string = (dump.rows ?? dump)[0].text;
      expect(text, name).not.toContain("5555555555554444");
      expect(text, name).not.toContain("4242424242424242");
      expect(text, name).not.toMatch(/"cvc"/);
    }
  });
});

test("the ledger's invariants hold after every test above (docs/reference.md section 18)", async () => {
  expect(await checkLedger(api.db)).toEqual([]);
});
