import { afterAll, beforeAll, describe, expect, test } from "vitest";

import {
  Onb,
  OnbAuthenticationError,
  OnbConflictError,
  OnbError,
  OnbInvalidRequestError,
  OnbNotFoundError,
} from "@/packages/node/src/index";

import { startTestApi, type TestApi } from "../helpers/api";
import { application } from "../helpers/fixtures";
import { until } from "../helpers/until";

// The whole life of a merchant through the SDK alone (packages/node), against the real HTTP app:
// what an ISV's integration does, in the SDK's words. Only the merchant's browser (opening the
// onboarding link) is not the SDK's.

let api: TestApi;
let onb: Onb;
/** Every request the SDK sent: method, path, and the headers that make it safe and versioned. */
const sent: { method: string; url: string; headers: Headers }[] = [];

beforeAll(async () => {
  api = await startTestApi({ worker: true });
  const isv = await api.newIsv("SDK ISV");
  onb = new Onb({
    baseUrl: api.baseUrl,
    accountSid: isv.account_sid,
    secretKey: isv.secret_key,
    fetch: (input, init) => {
      sent.push({ method: init?.method ?? "GET", url: String(input), headers: new Headers(init?.headers) });
      return fetch(input, init);
    },
  });
});
afterAll(() => api?.close());

/** Opens an onboarding link as the merchant's browser does; answers the session token. */
async function openLink(url: string) {
  const res = await fetch(api.baseUrl + new URL(url).pathname, { redirect: "manual" });
  const token = res.headers.get("set-cookie")?.match(/onboarding_session=([^;]+)/)?.[1];
  if (!token) throw new Error(`link did not open (${res.status})`);
  return token;
}

describe("the SDK, end to end", () => {
  test("merchant, link, prefilled application, approval, payment, refund, settlement, payout, statement", async () => {
    const app = application();
    const merchant = await onb.merchants.create({ phone: "+14155550123", merchant: app });
    expect(merchant.id).toMatch(/^mer_/);
    expect(merchant.lead_onboarding_status).toBe("NOT_STARTED");

    const link = await onb.onboardingLinks.create({
      merchant_id: merchant.id,
      type: "account_onboarding",
      return_url: "https://isv.example/done",
    });
    expect(link.url).toContain("/onboard/");

    // The merchant: its session's calls take its token instead of the ISV's key.
    const session = await openLink(link.url);
    const opened = await onb.onboardingSession.retrieve({ bearerToken: session });
    expect(opened.merchant.legal_business_name).toBe(app.legal_business_name);
    expect(opened.merchant.legal_business_name).toBeTruthy();
    await onb.onboardingSession.update({ device: { catalog_id: "pax-a920" } }, { bearerToken: session });
    await onb.onboardingSession.signAgreement(
      { name: `${app.owner_one.first_name} ${app.owner_one.last_name}` },
      { bearerToken: session },
    );
    await onb.onboardingSession.submit({ bearerToken: session });
    // Without its token, a session call says so before anything is sent.
    await expect(onb.onboardingSession.retrieve()).rejects.toThrow(OnbError);

    // Underwriting approves it (the worker): the ISV polls as its integration would.
    const approved = await until(
      () => onb.merchants.retrieve(merchant.id),
      (m) => m.lead_onboarding_status === "APPROVED",
      20_000,
      "the merchant to be approved",
    );
    const publishableKey = approved.payment!.tokenizer_publishable_key!;
    expect(publishableKey).toBeTruthy();

    const request = await onb.paymentRequests.createScanToPay({ merchant_id: merchant.id, amount: 2_500 });
    expect(request).toMatchObject({ status: "PENDING", amount: 2_500 });
    const token = await onb.tokens.create(
      { card: { number: "4242424242424242", exp_month: 12, exp_year: new Date().getUTCFullYear() + 2, cvc: "123" } },
      { bearerToken: publishableKey },
    );
    const paid = await onb.paymentRequests.pay(request.id, { token: token.id });
    expect(paid).toMatchObject({ outcome: "paid", payment_request: { status: "PAID" } });
    const chargeId = paid.charge.id;
    const charge = await onb.charges.retrieve(chargeId);
    expect(charge).toMatchObject({ id: chargeId, amount_captured: 2_500, payment_request_id: request.id });

    const refund = await onb.refunds.create({ charge_id: chargeId, amount: 500 });
    expect(refund).toMatchObject({ charge_id: chargeId, amount: 500 });
    // A refund larger than what is left: a typed 400, nothing refunded.
    const tooMuch = await onb.refunds.create({ charge_id: chargeId, amount: 2_001 }).catch((e: unknown) => e);
    expect(tooMuch).toBeInstanceOf(OnbInvalidRequestError);
    expect((tooMuch as OnbInvalidRequestError).code).toBe("refund_exceeds_charge");
    expect((await onb.charges.retrieve(chargeId)).amount_refunded).toBe(500);

    const run = await onb.testHelpers.runSettlement({ merchant_id: merchant.id });
    expect(run.data).toHaveLength(1);
    const settlement = await onb.settlements.retrieve(run.data[0]!.id);
    expect(settlement).toMatchObject({ gross: 2_500, refunds: 500 });
    const settled = await onb.settlements.listCharges(settlement.id).toArray();
    expect(settled.map((c) => c.id)).toEqual([chargeId]);

    const payouts = await onb.payouts.list({ merchant_id: merchant.id });
    expect(payouts.data).toHaveLength(1);
    const payout = payouts.data[0]!;
    expect(payout).toMatchObject({ settlement_id: settlement.id, amount: settlement.net });
    await until(
      () => onb.payouts.retrieve(payout.id),
      (p) => p.status === "in_transit",
      20_000,
      "the payout to be sent",
    );
    expect(await onb.testHelpers.advancePayout(payout.id)).toMatchObject({ status: "paid" });
    // Nothing moves a paid payout: a typed 409.
    const again = await onb.testHelpers.advancePayout(payout.id).catch((e: unknown) => e);
    expect(again).toBeInstanceOf(OnbConflictError);
    expect((again as OnbConflictError).code).toBe("invalid_state");

    const period = new Date().toISOString().slice(0, 7);
    const statement = await onb.testHelpers.generateStatement({ merchant_id: merchant.id, period });
    const listed = await onb.statements.list(merchant.id);
    expect(listed.data.map((s) => s.id)).toContain(statement.id);
    const detail = await onb.statements.retrieve(merchant.id, statement.id);
    expect(detail).toMatchObject({ period, refunds: 500 });
    const pdf = await onb.statements.download(merchant.id, statement.id, { format: "pdf" });
    expect(pdf.contentType).toBe("application/pdf");
    expect(new TextDecoder().decode(pdf.data.slice(0, 5))).toBe("%PDF-");
    const csv = await onb.statements.download(merchant.id, statement.id, { format: "csv" });
    expect(csv.contentType).toMatch(/^text\/csv/);
    expect(csv.text()).toContain(`charge,${chargeId},${chargeId},`);
    expect(csv.text()).toContain(`refund,${refund.id},${chargeId},`);
  });

  test("every request carries the version; every POST an idempotency key, the client's own when given", async () => {
    sent.length = 0;
    const merchant = await onb.merchants.create({ phone: "+14155550124" }, { idempotencyKey: "sdk-flow-key-1" });
    const replay = await onb.merchants.create({ phone: "+14155550124" }, { idempotencyKey: "sdk-flow-key-1" });
    expect(replay.id).toBe(merchant.id);
    await onb.merchants.retrieve(merchant.id);
    await onb.merchants.create({ phone: "+14155550125" });
    expect(sent.map((s) => s.headers.get("onb-version"))).toEqual(Array(4).fill(onb.apiVersion));
    expect(sent.map((s) => s.headers.get("idempotency-key"))).toEqual([
      "sdk-flow-key-1",
      "sdk-flow-key-1",
      null,
      expect.stringMatching(/^[0-9a-f-]{36}$/),
    ]);
  });

  test("errors are typed by the API's error type and code", async () => {
    const missing = await onb.merchants.retrieve("mer_doesnotexist").catch((e: unknown) => e);
    expect(missing).toBeInstanceOf(OnbNotFoundError);
    expect(missing).toMatchObject({ status: 404, type: "not_found_error", code: "resource_missing" });
    expect((missing as OnbNotFoundError).requestId).toBeTruthy();

    const invalid = await onb.merchants.create({ phone: "not a phone" }).catch((e: unknown) => e);
    expect(invalid).toBeInstanceOf(OnbInvalidRequestError);
    expect((invalid as OnbInvalidRequestError).errors?.map((e) => e.param)).toContain("phone");

    const stranger = new Onb({ baseUrl: api.baseUrl, accountSid: "AC_nobody", secretKey: "sk_wrong" });
    const refused = await stranger.account.retrieve().catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(OnbAuthenticationError);
    expect((refused as OnbAuthenticationError).status).toBe(401);

    const unknownVersion = await onb.account.retrieve({ apiVersion: "1999-01-01" }).catch((e: unknown) => e);
    expect(unknownVersion).toMatchObject({ status: 400, code: "api_version_unknown" });
  });
});
