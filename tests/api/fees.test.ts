import { afterAll, beforeAll, describe, expect, test } from "vitest";

import { startTestApi, type TestApi } from "../helpers/api";
import { approvedMerchant, tokenize } from "../helpers/payments";

// Every approved charge is priced when authorized (docs/reference.md section 13); the preview answers the
// same figures without charging. Worked examples on the ISV's initial pricing.

let api: TestApi;
let isv: Awaited<ReturnType<TestApi["newIsv"]>>;
let flat: Awaited<ReturnType<typeof approvedMerchant>>;
let tiered: Awaited<ReturnType<typeof approvedMerchant>>;

beforeAll(async () => {
  api = await startTestApi({ worker: true });
  isv = await api.newIsv("Fees ISV");
  flat = await approvedMerchant(api, isv);
  tiered = await approvedMerchant(api, isv, (a) => {
    a.capabilities = { types: ["tiered"], options: { tiered: { vmd_nonq_credit_rate_percent: "3.50" } } };
  });
}, 60_000);
afterAll(() => api.close());

const preview = (body: Record<string, unknown>, auth = isv.auth) =>
  api.call("POST", "/v1/fees/preview", { auth, body });
async function pay(
  merchant: Awaited<ReturnType<typeof approvedMerchant>>,
  amount: number,
  card: string,
  extra: Record<string, unknown> = {},
) {
  const pr = (await api.call("POST", "/v1/scan_to_pay", { auth: isv.auth, body: { merchant_id: merchant.id, amount } }))
    .json;
  const res = await api.call("POST", `/v1/payment_requests/${pr.id}/pay`, {
    body: { token: await tokenize(api, merchant.publishableKey, card), ...extra },
  });
  return (await api.call("GET", `/v1/charges/${res.json.charge.id}`, { auth: isv.auth })).json;
}

describe("fees on charges", () => {
  test("flat rate: $12.33 Visa credit keyed → 2.90 % + $0.30 = 66 cents (35.757 + 30, half up); net 1,167", async () => {
    const charge = await pay(flat, 1233, "4242424242424242");
    expect(charge).toMatchObject({ fee: 66, net: 1167 });
    expect(charge.fee_details).toEqual([
      {
        type: "processing",
        model: "flat_rate",
        rate_bps: 290,
        fixed: 30,
        amount: 66,
        description: "Flat rate, Visa, Mastercard, Discover credit",
      },
    ]);
  });

  test("flat rate, debit and Amex classes", async () => {
    expect(await pay(flat, 10_000, "4000056655665556")).toMatchObject({ fee: 275, net: 9725 });
    expect(await pay(flat, 10_000, "378282246310005")).toMatchObject({ fee: 380, net: 9620 });
  });

  test("tiered: keyed without a postal code is non-qualified (the merchant's 3.50 % override), with one mid-qualified", async () => {
    expect(await pay(tiered, 10_000, "4242424242424242")).toMatchObject({ fee: 360, net: 9640 });
    const mid = await pay(tiered, 10_000, "4242424242424242", { billing_address: { postal_code: "94107" } });
    expect(mid).toMatchObject({ fee: 259, net: 9741 });
    expect(mid.fee_details[0].description).toBe("Tiered, mid-qualified, Visa, Mastercard, Discover credit");
  });

  test("tiered: only a billing postal code makes a keyed charge mid-qualified; an e-mail, a street or a blank code does not; a card present qualifies", async () => {
    const nonQualified = { fee: 360, net: 9640 };
    const keyedWith = (extra: Record<string, unknown>) => pay(tiered, 10_000, "4242424242424242", extra);
    expect(await keyedWith({ billing_address: { email: "ana@example.test" } })).toMatchObject(nonQualified);
    expect(await keyedWith({ email: "ana@example.test", phone: "+14155550123" })).toMatchObject(nonQualified);
    expect(
      await keyedWith({ billing_address: { address_line_1: "1 Market St", city: "San Francisco", state: "CA" } }),
    ).toMatchObject(nonQualified);
    expect(await keyedWith({ billing_address: { postal_code: "   " } })).toMatchObject(nonQualified);
    const nonq = await keyedWith({ billing_address: { email: "ana@example.test", country: "US" } });
    expect(nonq.fee_details[0].description).toBe("Tiered, non-qualified, Visa, Mastercard, Discover credit");
    // Card present (chip at the terminal): qualified, 1.69 % → 168.999 → 169 on $99.99.
    await api.call("POST", "/v1/terminal", {
      auth: isv.auth,
      body: { merchant_id: tiered.id, terminal_id: tiered.terminalId, amount: 9_999 },
    });
    const present = await api.call("POST", `/v1/test_helpers/terminals/${tiered.terminalId}/present_card`, {
      auth: isv.auth,
      body: { card_entry_method: "CHIP", card_number: "4242424242424242" },
    });
    expect(present.json).toMatchObject({ fee: 169, net: 9_830 });
    expect(present.json.fee_details[0].description).toBe("Tiered, qualified, Visa, Mastercard, Discover credit");
  });

  test("a declined charge has no fee", async () => {
    expect(await pay(flat, 1000, "4000000000000002")).toMatchObject({
      status: "FAILED",
      fee: null,
      net: null,
      fee_details: null,
    });
  });
});

describe("POST /v1/fees/preview", () => {
  test("the same figures as a charge, for each entry method and class", async () => {
    const res = await preview({
      merchant_id: flat.id,
      amount: 10_000,
      card_entry_method: "MANUAL",
      card_brand: "visa",
    });
    expect(res.status).toBe(200);
    expect(res.json).toEqual({
      object: "fee_preview",
      merchant_id: flat.id,
      amount: 10_000,
      currency: "usd",
      model: "flat_rate",
      fee: 320,
      net: 9680,
      fee_details: [
        {
          type: "processing",
          model: "flat_rate",
          rate_bps: 290,
          fixed: 30,
          amount: 320,
          description: "Flat rate, Visa, Mastercard, Discover credit",
        },
      ],
    });
    expect(
      (await preview({ merchant_id: tiered.id, amount: 10_000, card_entry_method: "CHIP", card_brand: "visa" })).json,
    ).toMatchObject({
      model: "tiered",
      fee: 169,
    });
    expect(
      (
        await preview({
          merchant_id: tiered.id,
          amount: 10_000,
          card_entry_method: "MANUAL",
          card_brand: "visa",
          keyed_with_postal_code: true,
        })
      ).json.fee,
    ).toBe(259);
    expect(
      (await preview({ merchant_id: tiered.id, amount: 10_000, card_entry_method: "SWIPE", card_brand: "AMEX" })).json
        .fee,
    ).toBe(219);
  });

  test("bad input is a 400 naming the field; another ISV's merchant is a 404", async () => {
    for (const [change, param] of [
      [{ amount: -1 }, "amount"],
      [{ card_entry_method: "TAP" }, "card_entry_method"],
      [{ funding: "gold" }, "funding"],
      [{ card_brand: undefined }, "card_brand"],
    ] as const) {
      const res = await preview({
        merchant_id: flat.id,
        amount: 100,
        card_entry_method: "MANUAL",
        card_brand: "visa",
        ...change,
      });
      expect(res.status).toBe(400);
      expect(res.json.error.param).toBe(param);
    }
    const other = await api.newIsv("Other");
    expect(
      (
        await preview(
          { merchant_id: flat.id, amount: 100, card_entry_method: "MANUAL", card_brand: "visa" },
          other.auth,
        )
      ).status,
    ).toBe(404);
  });
});
