import { and, eq, inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";

import { cardTokens, charges, events, paymentRequests } from "@/lib/db/schema";
import { payRequest } from "@/lib/domain/payments/pay-payment-request";

import { startTestApi, type TestApi } from "../helpers/api";
import { approvedMerchant } from "../helpers/payments";

// Card testing through a public pay link (docs/reference.md section 10): whoever holds a pay URL
// can scrape the merchant's publishable key and try stolen cards. A request takes 5 declines and
// locks; a card is refused after 10 declines in 24 hours across requests; an address after 20 in an
// hour; the anonymous payer never learns why a card was declined beyond what helps an honest one;
// a $0 request (a free card check) cannot be made; one address makes at most 60 tokens a minute.
// The app trusts the loopback test client as its proxy, so each test pays from its own address.

let api: TestApi;
let isv: Awaited<ReturnType<TestApi["newIsv"]>>;
let other: Awaited<ReturnType<TestApi["newIsv"]>>;
let merchant: Awaited<ReturnType<typeof approvedMerchant>>;

beforeAll(async () => {
  api = await startTestApi({ worker: true, trustProxy: "loopback", tokensPerAddressPerMinute: 60 });
  isv = await api.newIsv("Card Testing ISV");
  other = await api.newIsv("Other ISV");
  merchant = await approvedMerchant(api, isv);
}, 60_000);
afterAll(() => api.close());

const cards = {
  approves: "4242424242424242",
  declined: "4000000000000002",
  insufficientFunds: "4000000000009995",
  lost: "4000000000009987",
  stolen: "4000000000009979",
  expired: "4000000000000069",
  incorrectCvc: "4000000000000127",
  processingError: "4000000000000119",
};
const from = (address: string) => ({ "x-forwarded-for": address });

async function tokenize(number: string, address: string) {
  const res = await api.call("POST", "/v1/tokens", {
    auth: `Bearer ${merchant.publishableKey}`,
    body: { card: { number, exp_month: 12, exp_year: new Date().getUTCFullYear() + 2, cvc: "123" } },
    headers: from(address),
  });
  if (res.status !== 200) throw new Error(`tokenize ${number}: ${res.status} ${res.text}`);
  return res.json.id as string;
}
async function newRequest(body: Record<string, unknown> = {}) {
  const res = await api.call("POST", "/v1/scan_to_pay", {
    auth: isv.auth,
    body: { merchant_id: merchant.id, amount: 1000, ...body },
  });
  expect(res.status).toBe(200);
  return res.json.id as string;
}
async function pay(requestId: string, number: string, address: string, body: Record<string, unknown> = {}) {
  return api.call("POST", `/v1/payment_requests/${requestId}/pay`, {
    body: { token: await tokenize(number, address), ...body },
    headers: from(address),
  });
}
const chargesOf = (requestId: string) =>
  api.db.select().from(charges).where(eq(charges.paymentRequestId, requestId)).orderBy(charges.seq);
const eventTypes = async (objectId: string) =>
  (await api.db.select().from(events).where(eq(events.objectId, objectId))).map((e) => e.type).sort();

describe("card testing through a public pay link", () => {
  test("a $0 payment request (a free card check) is refused at creation, and nothing is written", async () => {
    const before = await api.db.select().from(paymentRequests).where(eq(paymentRequests.merchantId, merchant.id));
    for (const body of [{ amount: 0 }, { amount: 0, tax: 0, tip: 0 }]) {
      const res = await api.call("POST", "/v1/scan_to_pay", {
        auth: isv.auth,
        body: { merchant_id: merchant.id, ...body },
      });
      expect(res.status).toBe(400);
      expect(res.json.error).toMatchObject({ code: "parameter_invalid", param: "amount" });
    }
    const invoice = await api.call("POST", "/v1/invoice", {
      auth: isv.auth,
      body: { merchant_id: merchant.id, items: [{ name: "Sample", quantity: 1, unit_price: 0 }], sendVia: "none" },
    });
    expect(invoice.status).toBe(400);
    expect(invoice.json.error.param).toBe("items");
    const after = await api.db.select().from(paymentRequests).where(eq(paymentRequests.merchantId, merchant.id));
    expect(after.length).toBe(before.length);
  });

  test("the 6th attempt on one request is refused with nothing charged: 5 declines lock it until the ISV unlocks it", async () => {
    const address = "203.0.113.10";
    const id = await newRequest();
    const tried = [cards.expired, cards.insufficientFunds, cards.lost, cards.stolen, cards.incorrectCvc];
    for (const [i, number] of tried.entries()) {
      const res = await pay(id, number, address);
      expect(res.status).toBe(200);
      expect(res.json.outcome).toBe("declined");
      expect(res.json.payment_request).toMatchObject({ status: "PENDING", declined_attempts: i + 1 });
      expect(res.json.payment_request.locked_at === null).toBe(i < 4);
    }
    expect(await eventTypes(id)).toEqual(["payment_request.created", "payment_request.locked"]);

    // The 6th, even with a good card: 409, no charge, the request still PENDING and locked.
    const sixth = await pay(id, cards.approves, address);
    expect(sixth.status).toBe(409);
    expect(sixth.json.error.code).toBe("payment_request_locked");
    expect((await chargesOf(id)).map((c) => c.status)).toEqual(["FAILED", "FAILED", "FAILED", "FAILED", "FAILED"]);
    const [locked] = await api.db.select().from(paymentRequests).where(eq(paymentRequests.id, id));
    expect(locked).toMatchObject({ status: "PENDING", declinedAttempts: 5, chargeId: null });
    expect(locked!.lockedAt).toBeInstanceOf(Date);
    const page = await (
      await fetch(`${api.baseUrl}/v1/payment_requests/${id}`, { headers: { authorization: isv.auth } })
    ).json();
    expect(page).toMatchObject({ status: "PENDING", declined_attempts: 5, locked_at: locked!.lockedAt!.toISOString() });

    // Another ISV cannot unlock it (404); its own ISV can, once.
    const foreign = await api.call("POST", `/v1/payment_requests/${id}/unlock`, { auth: other.auth });
    expect(foreign.status).toBe(404);
    const unlocked = await api.call("POST", `/v1/payment_requests/${id}/unlock`, { auth: isv.auth });
    expect(unlocked.status).toBe(200);
    expect(unlocked.json).toMatchObject({ status: "PENDING", declined_attempts: 0, locked_at: null });
    expect((await api.call("POST", `/v1/payment_requests/${id}/unlock`, { auth: isv.auth })).json.error.code).toBe(
      "invalid_state",
    );
    expect(await eventTypes(id)).toEqual([
      "payment_request.created",
      "payment_request.locked",
      "payment_request.unlocked",
    ]);
    const paid = await pay(id, cards.approves, address);
    expect(paid.json).toMatchObject({ outcome: "paid", payment_request: { status: "PAID" } });
  });

  test("an attempt that read the request before another's decline was written counts on top of it (no stale count)", async () => {
    const address = "203.0.113.30";
    const id = await newRequest();
    // Read as an attempt reads it before it claims the request; another attempt is declined meanwhile.
    const [stale] = await api.db.select().from(paymentRequests).where(eq(paymentRequests.id, id));
    // (Cards another test declines once each: cards.declined's count belongs to the 10-declines test.)
    expect((await pay(id, cards.insufficientFunds, address)).json.outcome).toBe("declined");
    const tokenId = await tokenize(cards.incorrectCvc, address);
    const outcome = await payRequest(
      api.db,
      stale!,
      "MANUAL",
      {},
      async () => {
        const [token] = await api.db
          .update(cardTokens)
          .set({ usedAt: new Date() })
          .where(eq(cardTokens.id, tokenId))
          .returning();
        return {
          kind: "card",
          brand: token!.brand!,
          last4: token!.last4,
          expMonth: token!.expMonth!,
          expYear: token!.expYear!,
          funding: token!.funding!,
          fingerprint: token!.fingerprint,
          vault: token!.vault,
        };
      },
      { clientAddress: address },
    );
    expect(outcome.outcome).toBe("declined");
    expect((await chargesOf(id)).map((c) => c.status)).toEqual(["FAILED", "FAILED"]);
    const [row] = await api.db.select().from(paymentRequests).where(eq(paymentRequests.id, id));
    expect(row!.declinedAttempts).toBe(2);
  });

  test("processing errors (the processor's trouble, not the card's) never lock a request", async () => {
    const id = await newRequest();
    for (let i = 0; i < 6; i++) {
      const res = await pay(id, cards.processingError, "203.0.113.11");
      expect(res.json.charge.failure_reason).toBe("processing_error");
      expect(res.json.payment_request).toMatchObject({ declined_attempts: 0, locked_at: null });
    }
    expect((await pay(id, cards.approves, "203.0.113.11")).json.outcome).toBe("paid");
    // Nor do they count against the card: 12 errors of one card (past its 10 declines) and it is
    // still sent to the processor.
    for (let i = 0; i < 6; i++) {
      const res = await pay(await newRequest(), cards.processingError, "203.0.113.11");
      expect([res.status, res.json.charge?.failure_reason]).toEqual([200, "processing_error"]);
    }
  });

  // The only test that declines cards.declined: its count starts at 0.
  test("a card declined on 10 requests is refused on the 11th before the processor sees it", async () => {
    const address = "203.0.113.12";
    for (let i = 0; i < 10; i++) {
      const res = await pay(await newRequest(), cards.declined, address);
      expect(res.json.outcome).toBe("declined");
    }
    const eleventh = await newRequest();
    const refused = await pay(eleventh, cards.declined, address);
    expect(refused.status).toBe(429);
    expect(refused.json.error.code).toBe("too_many_declines");
    const retryAfter = Number(refused.headers.get("retry-after"));
    expect(retryAfter).toBeGreaterThan(23 * 3600);
    expect(retryAfter).toBeLessThanOrEqual(24 * 3600);
    // Nothing was attempted: no charge, the request untouched.
    expect(await chargesOf(eleventh)).toEqual([]);
    const [row] = await api.db.select().from(paymentRequests).where(eq(paymentRequests.id, eleventh));
    expect(row).toMatchObject({ status: "PENDING", declinedAttempts: 0, lockedAt: null, lastFailureReason: null });
    // The same customer with another card pays.
    expect((await pay(eleventh, cards.approves, address)).json.outcome).toBe("paid");
  });

  test("a card's declines leave its window when it passes: a card declined 10 times is not refused forever", async () => {
    // An ISV of its own: a card's count is per ISV, and this one is not shared with the other tests.
    const own = await api.newIsv("Window ISV");
    const shop = await approvedMerchant(api, own);
    const address = "203.0.113.44";
    const attempt = async (number: string) => {
      const request = (
        await api.call("POST", "/v1/scan_to_pay", { auth: own.auth, body: { merchant_id: shop.id, amount: 1000 } })
      ).json.id as string;
      const token = (
        await api.call("POST", "/v1/tokens", {
          auth: `Bearer ${shop.publishableKey}`,
          body: { card: { number, exp_month: 12, exp_year: new Date().getUTCFullYear() + 2, cvc: "123" } },
          headers: from(address),
        })
      ).json.id as string;
      const res = await api.call("POST", `/v1/payment_requests/${request}/pay`, {
        body: { token },
        headers: from(address),
      });
      return { res, request };
    };
    const declined: string[] = [];
    for (let i = 0; i < 10; i++) {
      const { res, request } = await attempt(cards.lost);
      expect(res.json.outcome).toBe("declined");
      declined.push((await chargesOf(request))[0]!.id);
    }
    expect((await attempt(cards.lost)).res.status).toBe(429);
    // Nine leave the window (a second past its start); one stays a minute inside it.
    const windowStart = Date.now() - 24 * 60 * 60 * 1000;
    await api.db
      .update(charges)
      .set({ createdAt: new Date(windowStart - 1_000) })
      .where(inArray(charges.id, declined.slice(0, 9)));
    await api.db
      .update(charges)
      .set({ createdAt: new Date(windowStart + 60_000) })
      .where(eq(charges.id, declined[9]!));
    // The card may try again: the processor sees it (and declines it).
    const again = await attempt(cards.lost);
    expect(again.res.status).toBe(200);
    expect(again.res.json.outcome).toBe("declined");
    // All ten back inside the window: refused again, before the processor.
    await api.db.update(charges).set({ createdAt: new Date() }).where(inArray(charges.id, declined));
    const shut = await attempt(cards.lost);
    expect(shut.res.status).toBe(429);
    expect(await chargesOf(shut.request)).toEqual([]);
  });

  test("20 declines from one address across requests: the 21st attempt is refused, another address still pays", async () => {
    const attacker = "203.0.113.13";
    const rotating = [cards.insufficientFunds, cards.lost, cards.stolen, cards.expired];
    for (const number of rotating) {
      const id = await newRequest();
      for (let i = 0; i < 5; i++) expect((await pay(id, number, attacker)).json.outcome).toBe("declined");
    }
    const target = await newRequest();
    const refused = await pay(target, cards.approves, attacker);
    expect(refused.status).toBe(429);
    expect(refused.json.error.code).toBe("too_many_declines");
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(3000);
    expect(await chargesOf(target)).toEqual([]);
    const paid = await pay(target, cards.approves, "198.51.100.20");
    expect(paid.json.outcome).toBe("paid");
    // The address is recorded on the charges (the window's source), never in any answer.
    const declined = await api.db
      .select()
      .from(charges)
      .where(and(eq(charges.merchantId, merchant.id), eq(charges.clientAddress, attacker)));
    expect(declined.length).toBe(20);
    expect(JSON.stringify(paid.json)).not.toContain("198.51.100.20");
  });

  test("the anonymous payer is told a generic decline; the charge, its event and the ISV keep the precise reason", async () => {
    const address = "203.0.113.14";
    const expectations: [string, string, string][] = [
      [cards.lost, "lost_card", "card_declined"],
      [cards.stolen, "stolen_card", "card_declined"],
      [cards.insufficientFunds, "insufficient_funds", "card_declined"],
      [cards.incorrectCvc, "incorrect_cvc", "incorrect_cvc"],
    ];
    for (const [number, precise, told] of expectations) {
      const id = await newRequest();
      const res = await pay(id, number, address);
      expect(res.json.charge.failure_reason).toBe(told);
      expect(res.text).not.toContain(precise === told ? "\u0000" : precise);
      // The public stream says the same as the answer.
      const stream = await fetch(`${api.baseUrl}/v1/payment_requests/${id}/stream`);
      const reader = stream.body!.getReader();
      const first = new TextDecoder().decode((await reader.read()).value);
      await reader.cancel();
      expect(
        JSON.parse(
          first
            .split("\n")
            .find((l) => l.startsWith("data:"))!
            .slice(5),
        ),
      ).toMatchObject({
        last_failure_reason: told,
        locked: false,
      });
      const charge = await api.call("GET", `/v1/charges/${res.json.charge.id}`, { auth: isv.auth });
      expect(charge.json).toMatchObject({ status: "FAILED", failure_reason: precise });
      const [event] = await api.db.select().from(events).where(eq(events.objectId, res.json.charge.id));
      expect(event).toMatchObject({ type: "charge.failed" });
      expect((event!.data as { failure_reason: string }).failure_reason).toBe(precise);
    }
    // An expired card is named: it helps an honest customer.
    const expired = await pay(await newRequest(), cards.expired, address);
    expect(expired.json.charge.failure_reason).toBe("expired_card");
  });

  test("the anonymous pay answer carries no customer e-mail or phone", async () => {
    const created = await api.call("POST", "/v1/invoice", {
      auth: isv.auth,
      body: {
        merchant_id: merchant.id,
        amount: 2500,
        email_address: "customer@example.com",
        phone_number: "+14155550123",
        sendVia: "none",
      },
    });
    expect(created.json).toMatchObject({ email_address: "customer@example.com", phone_number: "+14155550123" });
    const paid = await pay(created.json.id, cards.approves, "203.0.113.15");
    expect(paid.json.outcome).toBe("paid");
    expect(paid.text).not.toContain("customer@example.com");
    expect(paid.text).not.toContain("4155550123");
    expect(paid.json.payment_request.email_address).toBeUndefined();
    expect(paid.json.payment_request.phone_number).toBeUndefined();
    // The ISV still reads them.
    const own = await api.call("GET", `/v1/payment_requests/${created.json.id}`, { auth: isv.auth });
    expect(own.json).toMatchObject({ email_address: "customer@example.com", phone_number: "+14155550123" });
  });

  test("one address makes at most 60 tokens a minute across keys; another address is not held back", async () => {
    const scraper = "203.0.113.16";
    const statuses: number[] = [];
    for (let i = 0; i < 61; i++)
      statuses.push(
        (
          await api.call("POST", "/v1/tokens", {
            auth: `Bearer ${merchant.publishableKey}`,
            body: {
              card: { number: cards.approves, exp_month: 12, exp_year: new Date().getUTCFullYear() + 2, cvc: "123" },
            },
            headers: from(scraper),
          })
        ).status,
      );
    expect(statuses.slice(0, 60).every((s) => s === 200)).toBe(true);
    expect(statuses[60]).toBe(429);
    expect(await tokenize(cards.approves, "198.51.100.21")).toMatch(/^tok_/);
  });
});
