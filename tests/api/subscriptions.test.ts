import { and, asc, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";

import { charges, events, jobs, outbox, paymentRequests, subscriptions } from "@/lib/db/schema";
import { addIntervals } from "@/lib/domain/subscriptions/periods";
import { stepSubscription } from "@/lib/domain/subscriptions/renew";
import { checkLedger } from "@/lib/ledger/check";

import { startTestApi, type TestApi } from "../helpers/api";
import { approvedMerchant, tokenize } from "../helpers/payments";
import { until } from "../helpers/until";

// Subscriptions and test clocks (docs/reference.md section 21): periods renewed on a clock, the
// dunning of a declining card (retries on days 1, 3, 5 and 7, never for a hard decline, the end per
// the ISV's setting), recovery from the e-mailed link, the account updater, trials and cancellation,
// one charge per period under racing renewals, and another ISV's objects 404.

const DAY = 24 * 60 * 60 * 1000;
let api: TestApi;
let isv: Awaited<ReturnType<TestApi["newIsv"]>>;
let other: Awaited<ReturnType<TestApi["newIsv"]>>;
let merchant: Awaited<ReturnType<typeof approvedMerchant>>;

beforeAll(async () => {
  api = await startTestApi({ worker: true });
  [isv, other] = await Promise.all([api.newIsv("Gym ISV"), api.newIsv("Other ISV")]);
  merchant = await approvedMerchant(api, isv);
}, 120_000);
afterAll(() => api.close());

type Isv = typeof isv;
const call = (method: string, path: string, body?: unknown, auth = isv.auth, headers?: Record<string, string>) =>
  api.call(method, path, { auth, body, headers });
const ok = async (res: Promise<{ status: number; text: string; json: any }>) => {
  const answer = await res;
  expect(answer.status, answer.text).toBe(200);
  return answer.json;
};

/** A clock at a whole second, a customer on it with an e-mail, and a saved card. */
async function onClock(card = "4242424242424242", more: Record<string, unknown> = {}, who: Isv = isv, mer = merchant) {
  const start = Math.floor(Date.now() / 1000) * 1000;
  const clock = await ok(call("POST", "/v1/test_helpers/test_clocks", { frozen_time: start }, who.auth));
  const customer = await ok(
    call("POST", "/v1/customers", { merchant_id: mer.id, email: "dana@example.com", test_clock: clock.id }, who.auth),
  );
  const token = await tokenize(api, mer.publishableKey, card, more);
  const method = await ok(
    call("POST", "/v1/payment_methods", { token, customer: customer.id, consent: { accepted: true } }, who.auth),
  );
  return { clock, customer, method, start };
}

const subscribe = (customer: string, method: string, body: Record<string, unknown> = {}, auth = isv.auth) =>
  call(
    "POST",
    "/v1/subscriptions",
    {
      customer,
      payment_method: method,
      items: [{ name: "Membership", unit_price: 4900, quantity: 1 }],
      interval: "month",
      ...body,
    },
    auth,
  );

async function advance(clockId: string, to: number, auth = isv.auth) {
  expect(
    (await ok(call("POST", `/v1/test_helpers/test_clocks/${clockId}/advance`, { frozen_time: to }, auth))).status,
  ).toBe("advancing");
  return until(
    async () => (await call("GET", `/v1/test_helpers/test_clocks/${clockId}`, undefined, auth)).json,
    (c) => c.status !== "advancing",
    60_000,
    "the clock to be ready",
  );
}

const invoicesOf = (subscriptionId: string) =>
  api.db
    .select()
    .from(paymentRequests)
    .where(eq(paymentRequests.subscriptionId, subscriptionId))
    .orderBy(asc(paymentRequests.subscriptionPeriodStart));
const chargesOf = (requestId: string) =>
  api.db.select().from(charges).where(eq(charges.paymentRequestId, requestId)).orderBy(asc(charges.createdAt));
const eventTypes = async (objectIds: string[]) =>
  (
    await api.db
      .select({ type: events.type, objectId: events.objectId })
      .from(events)
      .where(sql`${events.objectId} in ${objectIds}`)
      .orderBy(asc(events.seq))
  ).map((e) => e.type);
const mails = (to: string, merchantId: string) =>
  api.db
    .select()
    .from(outbox)
    .where(and(eq(outbox.to, to), eq(outbox.merchantId, merchantId)))
    .orderBy(asc(outbox.createdAt));

describe("renewals on a test clock", () => {
  test("three months on a clock make three paid periods, each its own invoice, and the ledger holds", async () => {
    const { clock, customer, method, start } = await onClock();
    const made = await ok(subscribe(customer.id, method.id, { metadata: { plan: "gold" } }));
    expect(made).toMatchObject({
      object: "subscription",
      status: "active",
      amount: 4900,
      attempt_count: 0,
      test_clock: clock.id,
      current_period_start: start,
      created_at: start,
    });
    expect(made.current_period_end).toBe(addIntervals(new Date(start), "month", 1).getTime());

    const ready = await advance(clock.id, made.current_period_end + 45 * DAY);
    expect(ready).toMatchObject({ status: "ready", frozen_time: made.current_period_end + 45 * DAY });
    const invoices = await invoicesOf(made.id);
    expect(invoices.map((i) => [i.status, i.paymentType, i.amount, i.customerId])).toEqual(
      Array(3).fill(["PAID", "INVOICE", 4900, customer.id]),
    );
    const sub = await ok(call("GET", `/v1/subscriptions/${made.id}`));
    expect(invoices.map((i) => i.subscriptionPeriodStart!.getTime())).toEqual([
      start,
      made.current_period_end,
      sub.current_period_start,
    ]);
    expect(sub).toMatchObject({ status: "active", latest_invoice: invoices[2]!.id, recovered_amount: 0 });
    // Each period was charged at its own time on the clock, once.
    const paid = (await Promise.all(invoices.map((i) => chargesOf(i.id)))).map((cs) =>
      cs.map((c) => [c.status, c.createdAt.getTime()]),
    );
    expect(paid).toEqual(invoices.map((i) => [["AUTHORIZED", i.subscriptionPeriodStart!.getTime()]]));
    expect((await eventTypes(invoices.map((i) => i.id))).filter((t) => t === "invoice.paid")).toHaveLength(3);
    expect(await checkLedger(api.db)).toEqual([]);
  }, 90_000);
});

describe("dunning", () => {
  test("a soft decline goes past_due, is retried on days 1, 3, 5 and 7 with an e-mail each time, then unpaid; the e-mailed link recovers it", async () => {
    const { clock, customer, method, start } = await onClock("4000000000009995");
    const made = await ok(subscribe(customer.id, method.id));
    expect(made).toMatchObject({
      status: "past_due",
      attempt_count: 1,
      last_decline_code: "insufficient_funds",
      next_payment_attempt: start + DAY,
    });
    await advance(clock.id, start + 8 * DAY);
    const [invoice] = await invoicesOf(made.id);
    const tries = await chargesOf(invoice!.id);
    expect(tries.map((c) => [c.status, (c.createdAt.getTime() - start) / DAY])).toEqual(
      [0, 1, 3, 5, 7].map((day) => ["FAILED", day]),
    );
    const after = await ok(call("GET", `/v1/subscriptions/${made.id}`));
    expect(after).toMatchObject({ status: "unpaid", attempt_count: 5, next_payment_attempt: null });
    expect(invoice!.status).toBe("PENDING");
    const sent = (await mails("dana@example.com", merchant.id)).filter((m) => m.text.includes(invoice!.id));
    expect(sent.map((m) => m.kind)).toEqual([...Array(4).fill("subscription.payment_failed"), "subscription.unpaid"]);
    expect(sent[0]!.text).toContain(
      `We will try again on ${new Intl.DateTimeFormat("en-US", { dateStyle: "long", timeZone: "UTC" }).format(start + DAY)}`,
    );
    expect(sent[4]!.text).toContain("on hold until it is paid");
    expect(sent.every((m) => m.text.includes(`/pay/${invoice!.id}`))).toBe(true);

    // The customer pays from the link with another card, and keeps it for the next periods.
    const token = await tokenize(api, merchant.publishableKey, "5555555555554444");
    const paid = await api.call("POST", `/v1/payment_requests/${invoice!.id}/pay`, {
      body: { token, save_payment_method: { accepted: true } },
    });
    expect(paid.status, paid.text).toBe(200);
    const recovered = await ok(call("GET", `/v1/subscriptions/${made.id}`));
    expect(recovered).toMatchObject({ status: "active", attempt_count: 0, recovered_amount: 4900 });
    expect(recovered.payment_method).not.toBe(method.id);
    // What was recovered is the ledger's: a partial refund of the payment counts off it.
    const won = (await chargesOf(invoice!.id)).find((c) => c.status !== "FAILED")!;
    const refund = await call("POST", "/v1/refunds", { charge_id: won.id, amount: 900 });
    expect(refund.status, refund.text).toBe(200);
    expect(await ok(call("GET", `/v1/subscriptions/${made.id}`))).toMatchObject({ recovered_amount: 4000 });
    // Its events say what the ledger said when each was written: the link's payment (4,900 recovered,
    // read in the payment's transaction), and the next period's renewal (4,000, the refund counted off).
    const updates = async () =>
      (
        await api.db
          .select({ data: events.data })
          .from(events)
          .where(and(eq(events.objectId, made.id), eq(events.type, "subscription.updated")))
          .orderBy(asc(events.seq))
      ).map((e) => e.data as { status: string; recovered_amount: number; current_period_start: number });
    expect((await updates()).at(-1)).toMatchObject({ status: "active", recovered_amount: 4900 });
    await advance(clock.id, start + 32 * DAY);
    expect((await updates()).at(-1)).toMatchObject({
      status: "active",
      recovered_amount: 4000,
      current_period_start: addIntervals(new Date(start), "month", 1).getTime(),
    });
    expect(await eventTypes([made.id])).toEqual(
      expect.arrayContaining(["subscription.created", "subscription.updated"]),
    );
    expect((await eventTypes([invoice!.id])).filter((t) => t.startsWith("invoice."))).toEqual([
      ...Array(5).fill("invoice.payment_failed"),
      "invoice.paid",
    ]);
  }, 90_000);

  test("a hard decline is never retried; the customer is still e-mailed, and the ISV's setting cancels it at the end", async () => {
    const strict = await api.newIsv("Strict ISV");
    const shop = await approvedMerchant(api, strict);
    const set = await call(
      "PATCH",
      "/v1/account",
      { settings: { subscription_failure_action: "canceled" } },
      strict.auth,
    );
    expect(set.status, set.text).toBe(200);
    const { clock, customer, method, start } = await onClock("4000000000009979", {}, strict, shop);
    const made = await ok(subscribe(customer.id, method.id, {}, strict.auth));
    expect(made).toMatchObject({ status: "past_due", last_decline_code: "stolen_card" });
    await advance(clock.id, start + 8 * DAY, strict.auth);
    const [invoice] = await invoicesOf(made.id);
    expect(await chargesOf(invoice!.id)).toHaveLength(1);
    expect(invoice!.status).toBe("CANCELED");
    const ended = await ok(call("GET", `/v1/subscriptions/${made.id}`, undefined, strict.auth));
    expect(ended).toMatchObject({ status: "canceled", ended_at: start + 7 * DAY });
    const sent = await mails("dana@example.com", shop.id);
    expect(sent.map((m) => m.kind)).toEqual([...Array(4).fill("subscription.payment_failed"), "subscription.canceled"]);
  }, 90_000);

  test("a renewal whose saved method was detached is not charged; its invoice is payable from the link at once", async () => {
    const { clock, customer, method, start } = await onClock();
    const made = await ok(subscribe(customer.id, method.id, { trial_days: 3 }));
    await ok(call("POST", `/v1/payment_methods/${method.id}/detach`));
    // Past the trial's end, before the first retry (a day after).
    await advance(clock.id, start + 3 * DAY + DAY / 2);
    expect(await ok(call("GET", `/v1/subscriptions/${made.id}`))).toMatchObject({
      status: "past_due",
      attempt_count: 1,
      last_decline_code: "payment_method_unusable",
    });
    const [invoice] = await invoicesOf(made.id);
    // Made held for the renewal's charge, which never started: the customer's own payment is not refused as in progress.
    expect(invoice).toMatchObject({ status: "PENDING", lockedUntil: null });
    expect(await chargesOf(invoice!.id)).toEqual([]);
    const token = await tokenize(api, merchant.publishableKey, "5555555555554444");
    const paid = await api.call("POST", `/v1/payment_requests/${invoice!.id}/pay`, { body: { token } });
    expect(paid.status, paid.text).toBe(200);
    expect(await ok(call("GET", `/v1/subscriptions/${made.id}`))).toMatchObject({ status: "active", attempt_count: 0 });
  }, 90_000);

  test("the account updater renews an expired saved card before its renewal (payment_method.updated)", async () => {
    const now = new Date();
    const { clock, customer, method } = await onClock("4000000000003063", {
      exp_month: now.getUTCMonth() + 1,
      exp_year: now.getUTCFullYear(),
    });
    const made = await ok(subscribe(customer.id, method.id));
    await advance(clock.id, made.current_period_end + 31 * DAY);
    const renewed = await ok(call("GET", `/v1/payment_methods/${method.id}`));
    // Renewed at the first renewal, on the clock: three years on from then.
    expect(renewed.card).toMatchObject({
      exp_year: new Date(made.current_period_end).getUTCFullYear() + 3,
      expired: false,
    });
    expect(await eventTypes([method.id])).toContain("payment_method.updated");
    expect((await invoicesOf(made.id)).map((i) => i.status)).toEqual(["PAID", "PAID", "PAID"]);
  }, 90_000);
});

describe("trials, changes and cancellation", () => {
  test("a trial bills nothing until it ends; cancel_at_period_end ends it with its period; cancel ends at once", async () => {
    const { clock, customer, method, start } = await onClock();
    const trial = await ok(subscribe(customer.id, method.id, { trial_days: 14, interval: "week", interval_count: 2 }));
    expect(trial).toMatchObject({ status: "trialing", latest_invoice: null, trial_end: start + 14 * DAY });
    expect(await invoicesOf(trial.id)).toHaveLength(0);
    await advance(clock.id, start + 15 * DAY);
    const active = await ok(call("GET", `/v1/subscriptions/${trial.id}`));
    expect(active).toMatchObject({
      status: "active",
      current_period_start: start + 14 * DAY,
      current_period_end: start + 28 * DAY,
    });
    const ending = await ok(call("POST", `/v1/subscriptions/${trial.id}`, { cancel_at_period_end: true }));
    expect(ending.cancel_at_period_end).toBe(true);
    await advance(clock.id, start + 60 * DAY);
    expect(await ok(call("GET", `/v1/subscriptions/${trial.id}`))).toMatchObject({
      status: "canceled",
      ended_at: start + 28 * DAY,
    });
    expect(await invoicesOf(trial.id)).toHaveLength(1);

    const declining = await onClock("4000000000009995");
    const owing = await ok(subscribe(declining.customer.id, declining.method.id));
    const canceled = await ok(call("POST", `/v1/subscriptions/${owing.id}/cancel`));
    expect(canceled).toMatchObject({ status: "canceled", canceled_at: declining.start });
    expect((await invoicesOf(owing.id)).map((i) => i.status)).toEqual(["CANCELED"]);
    const again = await call("POST", `/v1/subscriptions/${owing.id}/cancel`);
    expect([again.status, again.json.error.code]).toEqual([409, "invalid_state"]);
    expect((await call("POST", `/v1/subscriptions/${owing.id}`, { cancel_at_period_end: false })).status).toBe(409);

    // A deleted customer's subscriptions end with it.
    const leaving = await onClock();
    const kept = await ok(subscribe(leaving.customer.id, leaving.method.id, { trial_days: 7 }));
    await ok(call("DELETE", `/v1/customers/${leaving.customer.id}`));
    expect(await ok(call("GET", `/v1/subscriptions/${kept.id}`))).toMatchObject({ status: "canceled" });
  }, 90_000);

  test("bad input is refused with nothing made; another ISV's subscriptions and clocks are 404", async () => {
    const { clock, customer, method } = await onClock();
    const count = async () =>
      (await api.db.select().from(subscriptions).where(eq(subscriptions.customerId, customer.id))).length;
    const tooLong = await subscribe(customer.id, method.id, { interval_count: 13 });
    expect([tooLong.status, tooLong.json.error.param]).toEqual([400, "interval_count"]);
    const free = await subscribe(customer.id, method.id, { items: [{ name: "Free", unit_price: 0, quantity: 1 }] });
    expect([free.status, free.json.error.param]).toEqual([400, "items"]);
    const someoneElse = await onClock();
    const foreign = await subscribe(customer.id, someoneElse.method.id);
    expect([foreign.status, foreign.json.error.code]).toEqual([400, "payment_method_unusable"]);
    expect(await count()).toBe(0);

    const made = await ok(subscribe(customer.id, method.id));
    expect((await call("GET", `/v1/subscriptions/${made.id}`, undefined, other.auth)).status).toBe(404);
    expect((await call("POST", `/v1/subscriptions/${made.id}/cancel`, undefined, other.auth)).status).toBe(404);
    expect((await subscribe(customer.id, method.id, {}, other.auth)).status).toBe(404);
    expect((await call("GET", `/v1/test_helpers/test_clocks/${clock.id}`, undefined, other.auth)).status).toBe(404);
    const theirs = await call(
      "POST",
      `/v1/test_helpers/test_clocks/${clock.id}/advance`,
      { frozen_time: Date.now() + DAY },
      other.auth,
    );
    expect(theirs.status).toBe(404);
    expect((await ok(call("GET", `/v1/subscriptions/${made.id}`))).status).toBe("active");
    expect((await call("GET", `/v1/subscriptions?customer=${customer.id}`)).json.data.map((s: any) => s.id)).toEqual([
      made.id,
    ]);
    const backwards = await call("POST", `/v1/test_helpers/test_clocks/${clock.id}/advance`, {
      frozen_time: clock.frozen_time - 1,
    });
    expect([backwards.status, backwards.json.error.param]).toEqual([400, "frozen_time"]);
  }, 90_000);
});

describe("a merchant that cannot take payments", () => {
  test("bills nothing while deactivated, and bills the period once it may again", async () => {
    const shop = await approvedMerchant(api, isv);
    const { clock, customer, method, start } = await onClock("4242424242424242", {}, isv, shop);
    const trial = await ok(subscribe(customer.id, method.id, { trial_days: 1 }));
    expect((await call("PATCH", `/v1/merchants/${shop.id}`, { deactivated: true })).status).toBe(200);
    await advance(clock.id, start + 3 * DAY);
    expect(await invoicesOf(trial.id)).toHaveLength(0);
    expect(await ok(call("GET", `/v1/subscriptions/${trial.id}`))).toMatchObject({ status: "trialing" });
    expect((await call("PATCH", `/v1/merchants/${shop.id}`, { deactivated: false })).status).toBe(200);
    await advance(clock.id, start + 5 * DAY);
    expect((await invoicesOf(trial.id)).map((i) => [i.status, i.subscriptionPeriodStart!.getTime()])).toEqual([
      ["PAID", start + DAY],
    ]);
  }, 90_000);
});

describe("one charge per period", () => {
  test("renewals racing on one due subscription bill its period once", async () => {
    const customer = await ok(call("POST", "/v1/customers", { merchant_id: merchant.id }));
    const token = await tokenize(api, merchant.publishableKey);
    const method = await ok(
      call("POST", "/v1/payment_methods", { token, customer: customer.id, consent: { accepted: true } }),
    );
    const key = `sub-${Date.now()}`;
    const first = await ok(subscribe(customer.id, method.id, { trial_days: 30 }, isv.auth));
    // Idempotency-Key: the same answer, one subscription.
    const once = await call(
      "POST",
      "/v1/subscriptions",
      {
        customer: customer.id,
        payment_method: method.id,
        items: [{ name: "M", unit_price: 100, quantity: 1 }],
        interval: "week",
      },
      isv.auth,
      { "Idempotency-Key": key },
    );
    const twice = await call(
      "POST",
      "/v1/subscriptions",
      {
        customer: customer.id,
        payment_method: method.id,
        items: [{ name: "M", unit_price: 100, quantity: 1 }],
        interval: "week",
      },
      isv.auth,
      { "Idempotency-Key": key },
    );
    expect(twice.json).toEqual(once.json);
    expect((await call("GET", `/v1/subscriptions?customer=${customer.id}`)).json.data).toHaveLength(2);

    // The trial's end made due now, then four runners at once.
    const past = new Date(Date.now() - 1000);
    await api.db
      .update(subscriptions)
      .set({ currentPeriodEnd: past, nextActionAt: past, billingCycleAnchor: past })
      .where(eq(subscriptions.id, first.id));
    const ran = await Promise.all(Array.from({ length: 4 }, () => stepSubscription(api.db, first.id)));
    expect(ran.filter(Boolean)).toHaveLength(1);
    const invoices = await invoicesOf(first.id);
    expect(invoices.map((i) => i.status)).toEqual(["PAID"]);
    expect((await chargesOf(invoices[0]!.id)).map((c) => c.status)).toEqual(["AUTHORIZED"]);
    expect(await ok(call("GET", `/v1/subscriptions/${first.id}`))).toMatchObject({
      status: "active",
      latest_invoice: invoices[0]!.id,
    });
    // Its next step is a job at its period's end, and its invoice's expiry a job (both written by
    // their transaction's last statement, with its events).
    const [paid] = await api.db.select().from(subscriptions).where(eq(subscriptions.id, first.id));
    const queued = await api.db
      .select({ type: jobs.type, runAt: jobs.runAt, payload: jobs.payload })
      .from(jobs)
      .where(
        sql`${jobs.payload}->>'subscription_id' = ${first.id} or ${jobs.payload}->>'payment_request_id' = ${invoices[0]!.id}`,
      );
    expect(queued).toContainEqual({
      type: "subscription_due",
      runAt: paid!.currentPeriodEnd,
      payload: { subscription_id: first.id },
    });
    expect(queued).toContainEqual({
      type: "payment_request_expiry",
      runAt: invoices[0]!.expiresAt,
      payload: { payment_request_id: invoices[0]!.id },
    });
  }, 60_000);
});

test("no card number or CVC in any table after saving, renewing and recovering (the PAN scan)", async () => {
  const tables = (await api.db.execute(
    sql`select table_name from information_schema.tables where table_schema = current_schema() and table_type = 'BASE TABLE'`,
  )) as any;
  const names: string[] = (tables.rows ?? tables).map((r: any) => r.table_name);
  expect(names).toEqual(expect.arrayContaining(["subscriptions", "payment_methods", "test_clocks"]));
  for (const name of names) {
    const dump = (await api.db.execute(
      sql.raw(`select coalesce(string_agg(t::text, '\n'), '') as text from "${name}" t`),
    )) as any;
    const text: string = (dump.rows ?? dump)[0].text;
    for (const pan of [
      "4242424242424242",
      "4000000000009995",
      "4000000000009979",
      "4000000000003063",
      "5555555555554444",
    ])
      expect(text, name).not.toContain(pan);
    expect(text, name).not.toMatch(/"cvc"/);
  }
  expect(await checkLedger(api.db)).toEqual([]);
});
