import { asc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";

import { paymentLinks, paymentRequests } from "@/lib/db/schema";

import { startTestApi, type TestApi } from "../helpers/api";
import { approvedMerchant, tokenize } from "../helpers/payments";

// Payment links (docs/reference.md section 21): each visit of the URL makes a payment request and
// redirects (303) to its pay page; the customer's own amount within the range; max_uses, the off
// switch and expiry; the QR code; another ISV's links are 404.

let api: TestApi;
let isv: Awaited<ReturnType<TestApi["newIsv"]>>;
let other: Awaited<ReturnType<TestApi["newIsv"]>>;
let merchant: Awaited<ReturnType<typeof approvedMerchant>>;

beforeAll(async () => {
  api = await startTestApi({ worker: true });
  [isv, other] = await Promise.all([api.newIsv("Yoga ISV"), api.newIsv("Other ISV")]);
  merchant = await approvedMerchant(api, isv);
}, 120_000);
afterAll(() => api.close());

const call = (method: string, path: string, body?: unknown, auth = isv.auth) => api.call(method, path, { auth, body });
const newLink = async (body: Record<string, unknown>) => {
  const res = await call("POST", "/v1/payment_links", { merchant_id: merchant.id, ...body });
  expect(res.status, res.text).toBe(200);
  return res.json;
};
/** A visit of the link's URL, as a browser makes it (the path of `url` on the test server). */
const visit = (url: string, form?: string) =>
  fetch(`${api.baseUrl}${new URL(url).pathname}`, {
    method: form === undefined ? "GET" : "POST",
    redirect: "manual",
    headers: form === undefined ? {} : { "content-type": "application/x-www-form-urlencoded" },
    body: form,
  });
const requestOf = async (res: Response) => {
  expect(res.status).toBe(303);
  const id = /\/pay\/(pr_\w+)$/.exec(res.headers.get("location") ?? "")?.[1];
  const [row] = await api.db
    .select()
    .from(paymentRequests)
    .where(eq(paymentRequests.id, id ?? ""));
  return row!;
};
const pay = async (requestId: string) => {
  const token = await tokenize(api, merchant.publishableKey);
  const res = await api.call("POST", `/v1/payment_requests/${requestId}/pay`, { body: { token } });
  expect(res.status, res.text).toBe(200);
};

describe("payment links", () => {
  test("every visit makes its own request and goes to its pay page (303); paid twice, counted twice", async () => {
    const link = await newLink({ amount: 2500, description: "Drop-in class" });
    expect(link).toMatchObject({ object: "payment_link", active: true, amount: 2500, paid_count: 0 });
    expect(link.url).toMatch(new RegExp(`/l/${link.id}$`));
    const first = await requestOf(await visit(link.url));
    const second = await requestOf(await visit(link.url));
    expect(first.id).not.toBe(second.id);
    for (const request of [first, second]) {
      expect(request).toMatchObject({
        paymentLinkId: link.id,
        paymentType: "SCAN_TO_PAY",
        amount: 2500,
        status: "PENDING",
      });
      await pay(request.id);
    }
    expect((await call("GET", `/v1/payment_links/${link.id}`)).json).toMatchObject({ paid_count: 2, active: true });
    const paid = await call("GET", `/v1/payment_requests/${first.id}`);
    expect(paid.json).toMatchObject({ status: "PAID", payment_link_id: link.id });

    const qr = await fetch(`${api.baseUrl}${new URL(link.qr_code_url).pathname}`);
    expect(qr.headers.get("content-type")).toBe("image/png");
    expect([...new Uint8Array(await qr.arrayBuffer()).slice(0, 4)]).toEqual([0x89, 0x50, 0x4e, 0x47]);
    const svg = await (await fetch(`${api.baseUrl}${new URL(link.qr_code_url).pathname}?format=svg`)).text();
    expect(svg).toContain("<svg");
  });

  test("the customer types the amount: outside the range the form says so and nothing is made", async () => {
    const link = await newLink({ customer_chooses_amount: { min: 1000, max: 50000 }, description: "Donation" });
    expect(link.customer_chooses_amount).toEqual({ min: 1000, max: 50000 });
    const form = await visit(link.url);
    expect(form.status).toBe(200);
    const html = await form.text();
    expect(html).toContain('<label for="amount">Amount (USD)</label>');
    expect(html).toContain("Between $10.00 and $500.00");
    expect(form.headers.get("content-security-policy")).toContain("form-action 'self'");
    const before = (await api.db.select().from(paymentRequests).where(eq(paymentRequests.paymentLinkId, link.id)))
      .length;
    for (const typed of ["5", "600", "abc"]) {
      const refused = await visit(link.url, `amount=${encodeURIComponent(typed)}`);
      expect(refused.status).toBe(400);
      expect(await refused.text()).toContain('role="alert"');
    }
    expect((await api.db.select().from(paymentRequests).where(eq(paymentRequests.paymentLinkId, link.id))).length).toBe(
      before,
    );
    const chosen = await requestOf(await visit(link.url, "amount=25%2C50"));
    expect(chosen.amount).toBe(2550);
  });

  test("max_uses turns it off once used up; active false and expiry too; a visit then says so", async () => {
    const once = await newLink({ items: [{ name: "Workshop", unit_price: 1500, quantity: 2 }], max_uses: 1 });
    expect(once.amount).toBe(3000);
    await pay((await requestOf(await visit(once.url))).id);
    const used = await call("GET", `/v1/payment_links/${once.id}`);
    expect(used.json).toMatchObject({ active: false, paid_count: 1 });
    const gone = await visit(once.url);
    expect(gone.status).toBe(410);
    expect(await gone.text()).toContain("This link no longer takes payments");
    expect((await call("POST", `/v1/payment_links/${once.id}`, { active: true })).status).toBe(409);

    const off = await newLink({ amount: 100 });
    expect((await call("POST", `/v1/payment_links/${off.id}`, { active: false })).json.active).toBe(false);
    const spanish = await fetch(`${api.baseUrl}${new URL(off.url).pathname}`, {
      headers: { "accept-language": "es-MX,es;q=0.9" },
      redirect: "manual",
    });
    expect([spanish.status, (await spanish.text()).includes("Este enlace ya no acepta pagos")]).toEqual([410, true]);
    expect((await call("POST", `/v1/payment_links/${off.id}`, { active: true })).json.active).toBe(true);
    expect((await visit(off.url)).status).toBe(303);

    const expiring = await newLink({ amount: 100, expires_at: Date.now() + 60_000 });
    await api.db
      .update(paymentLinks)
      .set({ expiresAt: new Date(Date.now() - 1) })
      .where(eq(paymentLinks.id, expiring.id));
    expect((await visit(expiring.url)).status).toBe(410);
  });

  test("bad input is refused with nothing made; another ISV's links are 404; an unknown link says so", async () => {
    const count = async () => (await api.db.select().from(paymentLinks).orderBy(asc(paymentLinks.seq))).length;
    const before = await count();
    const both = await call("POST", "/v1/payment_links", {
      merchant_id: merchant.id,
      amount: 100,
      items: [{ name: "A", unit_price: 1, quantity: 1 }],
    });
    expect([both.status, both.json.error.param]).toEqual([400, "amount"]);
    const past = await call("POST", "/v1/payment_links", {
      merchant_id: merchant.id,
      amount: 100,
      expires_at: Date.now() - 1,
    });
    expect([past.status, past.json.error.param]).toEqual([400, "expires_at"]);
    const inverted = await call("POST", "/v1/payment_links", {
      merchant_id: merchant.id,
      customer_chooses_amount: { min: 500, max: 100 },
    });
    expect(inverted.status).toBe(400);
    expect(await count()).toBe(before);

    const link = await newLink({ amount: 700 });
    expect((await call("GET", `/v1/payment_links/${link.id}`, undefined, other.auth)).status).toBe(404);
    expect((await call("POST", `/v1/payment_links/${link.id}`, { active: false }, other.auth)).status).toBe(404);
    expect(
      (await call("POST", "/v1/payment_links", { merchant_id: merchant.id, amount: 100 }, other.auth)).status,
    ).toBe(404);
    expect((await call("GET", `/v1/payment_links/${link.id}`)).json.active).toBe(true);
    const unknown = await visit(`${api.baseUrl}/l/plink_nope`);
    expect(unknown.status).toBe(404);
    expect(await unknown.text()).toContain("This payment link does not exist");
  });
});
