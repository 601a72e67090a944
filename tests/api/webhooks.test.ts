import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";

import { jobs, webhookDeliveries } from "@/lib/db/schema";
import { recordEvent, recordEvents } from "@/lib/domain/events/record-event";
import { deliveryKeys } from "@/lib/domain/webhooks/fan-out";
import { env } from "@/lib/env";

import { startTestApi, type TestApi } from "../helpers/api";
import { application } from "../helpers/fixtures";
import { startReceiver } from "../helpers/receiver";
import { verifySignature } from "../helpers/signature";
import { until } from "../helpers/until";

let api: TestApi;
let isv: Awaited<ReturnType<TestApi["newIsv"]>>;
let other: Awaited<ReturnType<TestApi["newIsv"]>>;

beforeAll(async () => {
  api = await startTestApi({ worker: true });
  isv = await api.newIsv("Acme POS");
  other = await api.newIsv("Other ISV");
});
afterAll(() => api.close());

const createWebhook = (body: Record<string, unknown>, auth = isv.auth) =>
  api.call("POST", "/v1/webhooks", { auth, body });
const createMerchant = (auth = isv.auth, body: Record<string, unknown> = {}) =>
  api.call("POST", "/v1/merchants", { auth, body: { phone: "+14155550123", ...body } });
const deliveriesOf = (webhookId: string) =>
  api.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.webhookId, webhookId));

const parse = (body: string) =>
  JSON.parse(body) as { id: string; type: string; data: { object: { id: string } }; account_id: string };

describe("fan-out by the event catalogue", () => {
  test("payment_request.* and refund.* events reach the charge scope, not the merchant scope", async () => {
    const fresh = await api.newIsv();
    const receiver = await startReceiver();
    try {
      const chargeHook = (await createWebhook({ url: receiver.url, scopes: ["charge"] }, fresh.auth)).json;
      const merchantHook = (await createWebhook({ url: receiver.url, scopes: ["merchant"] }, fresh.auth)).json;
      for (const type of ["payment_request.paid", "refund.created", "settlement.created"] as const) {
        await api.db.transaction((tx) =>
          recordEvent(tx, { accountId: fresh.account_id, type, objectId: `obj_${type}`, data: { id: `obj_${type}` } }),
        );
      }
      await receiver.waitFor((r) => r.length === 3);
      expect(receiver.received.map((r) => JSON.parse(r.body).type).sort()).toEqual([
        "payment_request.paid",
        "refund.created",
        "settlement.created",
      ]);
      const toCharge = (await api.call("GET", `/v1/webhooks/${chargeHook.id}/deliveries`, { auth: fresh.auth })).json
        .data;
      const toMerchant = (await api.call("GET", `/v1/webhooks/${merchantHook.id}/deliveries`, { auth: fresh.auth }))
        .json.data;
      expect(toCharge).toHaveLength(3);
      expect(toMerchant).toEqual([]);
    } finally {
      await receiver.close();
    }
  });
});

describe("webhook subscriptions", () => {
  test("an account has at most 16 webhooks, even when created at once; deleting one makes room", async () => {
    const capped = await api.newIsv("Many Hooks");
    const create = (i: number) =>
      api.call("POST", "/v1/webhooks", {
        auth: capped.auth,
        body: { url: `https://hooks.example/${i}`, scopes: ["merchant"] },
      });
    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => create(i)));
    expect(answers.filter((a) => a.status === 200)).toHaveLength(16);
    const refused = answers.filter((a) => a.status !== 200);
    expect(refused.map((a) => a.status)).toEqual([400, 400, 400, 400]);
    expect(refused[0]!.json.error.message).toContain("at most 16 webhooks");
    const list = (await api.call("GET", "/v1/webhooks?limit=100", { auth: capped.auth })).json;
    expect(list.data).toHaveLength(16);
    expect((await api.call("DELETE", `/v1/webhooks/${list.data[0].id}`, { auth: capped.auth })).status).toBe(200);
    expect((await create(99)).status).toBe(200);
  });

  test("POST /v1/webhooks shows the generated secret once; GET masks it", async () => {
    const res = await createWebhook({ url: "https://acme.example/hooks", scopes: ["merchant"], description: "main" });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({
      object: "webhook",
      url: "https://acme.example/hooks",
      scopes: ["merchant"],
      description: "main",
      status: "enabled",
    });
    expect(res.json.id).toMatch(/^we_/);
    expect(res.json.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    const got = await api.call("GET", `/v1/webhooks/${res.json.id}`, { auth: isv.auth });
    expect(got.json.secret).not.toBe(res.json.secret);
    expect(got.json.secret).toMatch(/^\*+.{4}$/);
    const list = await api.call("GET", "/v1/webhooks", { auth: isv.auth });
    expect(list.json).toMatchObject({ object: "list", url: "/v1/webhooks" });
    expect(list.json.data.map((w: any) => w.id)).toContain(res.json.id);
    expect(list.text).not.toContain(res.json.secret);
  });

  test.each([
    [{ url: "https://a.example", scopes: [] }, "scopes"],
    [{ url: "https://a.example", scopes: ["payments"] }, "scopes[0]"],
    [{ url: "ftp://a.example", scopes: ["merchant"] }, "url"],
    [{ url: "https://a.example", scopes: ["merchant"], secret: "short" }, "secret"],
    [{ url: "https://a.example", scopes: ["merchant"], secret: "x".repeat(129) }, "secret"],
    [{ url: "https://a.example", scopes: ["merchant"], secret: "whsec_!!!!!!!!!!!!!!!!!!!!" }, "secret"],
    [{ scopes: ["merchant"] }, "url"],
  ])("POST /v1/webhooks rejects %o naming %s", async (body, param) => {
    const res = await createWebhook(body);
    expect(res.status).toBe(400);
    expect(res.json.error.param).toBe(param);
  });

  test("another account's webhook answers 404 for every operation, and nothing of it changes", async () => {
    const receiver = await startReceiver(() => ({ status: 500 }));
    try {
      const fresh = await api.newIsv();
      const mine = (await createWebhook({ url: receiver.url, scopes: ["merchant"] }, fresh.auth)).json.id;
      await createMerchant(fresh.auth);
      // A real delivery of this webhook, finished (failed) so that its owner could replay it.
      const [delivery] = await until(
        () => deliveriesOf(mine),
        (d) => d.length === 1 && d[0]!.status === "failed",
        15_000,
      );
      for (const [method, path] of [
        ["GET", `/v1/webhooks/${mine}`],
        ["DELETE", `/v1/webhooks/${mine}`],
        ["GET", `/v1/webhooks/${mine}/deliveries`],
        ["POST", `/v1/webhooks/${mine}/deliveries/${delivery!.id}/retry`],
      ] as const) {
        const res = await api.call(method, path, { auth: other.auth });
        expect(res.status, `${method} ${path}`).toBe(404);
        expect(res.json.error.code).toBe("resource_missing");
      }
      // Through its own webhook's path, the other account still cannot reach this delivery.
      const theirs = (await createWebhook({ url: receiver.url, scopes: ["merchant"] }, other.auth)).json.id;
      const crossed = await api.call("POST", `/v1/webhooks/${theirs}/deliveries/${delivery!.id}/retry`, {
        auth: other.auth,
      });
      expect(crossed.status).toBe(404);
      expect(crossed.json.error.code).toBe("resource_missing");
      // Nor can the owner replay it through another of its own webhooks.
      const second = (await createWebhook({ url: receiver.url, scopes: ["charge"] }, fresh.auth)).json.id;
      expect(
        (await api.call("POST", `/v1/webhooks/${second}/deliveries/${delivery!.id}/retry`, { auth: fresh.auth }))
          .status,
      ).toBe(404);
      await api.call("DELETE", `/v1/webhooks/${theirs}`, { auth: other.auth });
      expect(
        (await api.call("GET", "/v1/webhooks", { auth: other.auth })).json.data.map((w: any) => w.id),
      ).not.toContain(mine);
      expect((await api.call("GET", `/v1/webhooks/${mine}`, { auth: fresh.auth })).json.status).toBe("enabled");
      expect(await deliveriesOf(mine)).toEqual([delivery]);
      // The owner can replay it: the 404 above was about the account, not the id.
      expect(
        (await api.call("POST", `/v1/webhooks/${mine}/deliveries/${delivery!.id}/retry`, { auth: fresh.auth })).status,
      ).toBe(200);
    } finally {
      await receiver.close();
    }
  });
});

describe("delivery", () => {
  test("events reach a real receiver, signed per Standard Webhooks, with the masked resource", async () => {
    const fresh = await api.newIsv();
    const receiver = await startReceiver();
    const hook = (await createWebhook({ url: receiver.url, scopes: ["merchant"] }, fresh.auth)).json;
    const merchant = (await createMerchant(fresh.auth, { merchant: application() })).json;
    await receiver.waitFor((r) => r.length >= 1);
    const [first] = receiver.received;
    expect(verifySignature(hook.secret, first!)).toBe(true);
    const tampered = `${hook.secret.slice(0, 10)}${hook.secret[10] === "A" ? "B" : "A"}${hook.secret.slice(11)}`;
    expect(verifySignature(tampered, first!)).toBe(false);
    expect(
      verifySignature(hook.secret, { ...first!, body: first!.body.replace("merchant.created", "merchant.approved") }),
    ).toBe(false);
    const verified = JSON.parse(first!.body);
    expect(verified).toMatchObject({ object: "event", type: "merchant.created", account_id: fresh.account_id });
    expect(first!.headers["webhook-id"]).toBe(verified.id);
    expect(first!.headers["webhook-signature"]).toMatch(/^v1,/);
    expect(Math.abs(Number(first!.headers["webhook-timestamp"]) - Date.now() / 1000)).toBeLessThan(30);
    expect(verified.data.object.id).toBe(merchant.id);
    expect(verified.data.object.merchant.tin).toBe("*****6789");
    expect(first!.body).not.toContain("401234567");
    // The event is readable through the API too.
    const event = await api.call("GET", `/v1/events/${verified.id}`, { auth: fresh.auth });
    expect(event.json).toEqual(verified);
    await receiver.close();
  });

  test("a secret that is not whsec_ signs with its UTF-8 bytes", async () => {
    const fresh = await api.newIsv();
    const receiver = await startReceiver();
    const secret = "my-own-signing-secret-123";
    await createWebhook({ url: receiver.url, scopes: ["merchant"], secret }, fresh.auth);
    await createMerchant(fresh.auth);
    await receiver.waitFor((r) => r.length >= 1);
    expect(verifySignature(secret, receiver.received[0]!)).toBe(true);
    expect(verifySignature(`${secret}x`, receiver.received[0]!)).toBe(false);
    await receiver.close();
  });

  test("a receiver failing twice gets the event on the third try with the same webhook-id; every try is recorded", async () => {
    const fresh = await api.newIsv();
    const receiver = await startReceiver((_r, n) => ({ status: n <= 2 ? 503 : 200 }));
    const hook = (await createWebhook({ url: receiver.url, scopes: ["merchant"] }, fresh.auth)).json;
    await createMerchant(fresh.auth);
    await receiver.waitFor((r) => r.length >= 3);
    const ids = receiver.received.map((r) => r.headers["webhook-id"]);
    expect(new Set(ids).size).toBe(1);
    // Delivered: the delivery is final, so no fourth try can come.
    await until(
      () => deliveriesOf(hook.id),
      (d) => d[0]?.status === "succeeded",
    );
    expect(receiver.received).toHaveLength(3);
    const deliveries = await api.call("GET", `/v1/webhooks/${hook.id}/deliveries`, { auth: fresh.auth });
    expect(deliveries.json.data).toHaveLength(1);
    expect(deliveries.json.data[0]).toMatchObject({
      status: "succeeded",
      attempt_count: 3,
      last_status_code: 200,
      event_id: ids[0],
    });
    expect(deliveries.json.data[0].attempts.map((a: any) => a.status_code)).toEqual([503, 503, 200]);
    expect(deliveries.json.data[0].attempts[0].response_excerpt).toBe("status 503");
    await receiver.close();
  });

  test("only subscribed scopes are delivered, and one account never receives another's events", async () => {
    const fresh = await api.newIsv();
    const receiver = await startReceiver();
    const chargeHook = (await createWebhook({ url: receiver.url, scopes: ["charge"] }, fresh.auth)).json;
    const mine = await startReceiver();
    const merchantHook = (await createWebhook({ url: mine.url, scopes: ["merchant"] }, fresh.auth)).json;
    await createMerchant(other.auth);
    const own = (await createMerchant(fresh.auth)).json;
    await mine.waitFor((r) => r.length >= 1);
    // Deliveries are written with the event: none exists for the charge scope, none from the other account.
    expect(await deliveriesOf(chargeHook.id)).toEqual([]);
    // The receiver has the request before the worker records its answer: wait for the record.
    const delivered = await until(
      () => deliveriesOf(merchantHook.id),
      (d) => d.every((x) => x.status !== "pending"),
    );
    expect(delivered.map((d) => d.status)).toEqual(["succeeded"]);
    expect(receiver.received).toHaveLength(0);
    expect(mine.received.map((r) => parse(r.body).data.object.id)).toEqual([own.id]);
    await receiver.close();
    await mine.close();
  });

  test("deleting a webhook stops deliveries, including pending retries", async () => {
    const fresh = await api.newIsv();
    const receiver = await startReceiver(() => ({ status: 500 }));
    const hook = (await createWebhook({ url: receiver.url, scopes: ["merchant"] }, fresh.auth)).json;
    await createMerchant(fresh.auth);
    await receiver.waitFor((r) => r.length >= 1);
    const del = await api.call("DELETE", `/v1/webhooks/${hook.id}`, { auth: fresh.auth });
    expect(del.json).toEqual({ object: "webhook", id: hook.id, deleted: true });
    const count = receiver.received.length;
    await createMerchant(fresh.auth);
    // The pending retry is canceled when its job comes up; the new event makes no delivery at all.
    const after = await until(
      () => deliveriesOf(hook.id),
      (d) => d.every((x) => x.status !== "pending"),
    );
    expect(after.map((d) => d.status)).toEqual(["canceled"]);
    expect(receiver.received.length).toBeLessThanOrEqual(count + 1); // at most one try already in flight
    expect((await api.call("GET", `/v1/webhooks/${hook.id}`, { auth: fresh.auth })).status).toBe(404);
    await receiver.close();
  });

  test("a 410 disables the endpoint; a manual replay sends the same event again and re-enables it", async () => {
    const fresh = await api.newIsv();
    let gone = true;
    const receiver = await startReceiver(() => ({ status: gone ? 410 : 200 }));
    const hook = (await createWebhook({ url: receiver.url, scopes: ["merchant"] }, fresh.auth)).json;
    await createMerchant(fresh.auth);
    await receiver.waitFor((r) => r.length >= 1);
    const disabled = await until(
      async () => (await api.call("GET", `/v1/webhooks/${hook.id}`, { auth: fresh.auth })).json,
      (w) => w.status === "disabled",
    );
    expect(disabled).toMatchObject({ status: "disabled", disabled_reason: "endpoint_gone" });
    await createMerchant(fresh.auth);
    // A disabled endpoint gets no delivery for the new event.
    expect(await deliveriesOf(hook.id)).toHaveLength(1);
    expect(receiver.received).toHaveLength(1);

    gone = false;
    const deliveries = (await api.call("GET", `/v1/webhooks/${hook.id}/deliveries`, { auth: fresh.auth })).json.data;
    expect(deliveries[0]).toMatchObject({ status: "failed", last_status_code: 410 });
    const retry = await api.call("POST", `/v1/webhooks/${hook.id}/deliveries/${deliveries[0].id}/retry`, {
      auth: fresh.auth,
    });
    expect(retry.status).toBe(200);
    expect(retry.json.status).toBe("pending");
    await receiver.waitFor((r) => r.length >= 2);
    expect(receiver.received[1]!.headers["webhook-id"]).toBe(receiver.received[0]!.headers["webhook-id"]);
    expect((await api.call("GET", `/v1/webhooks/${hook.id}`, { auth: fresh.auth })).json.status).toBe("enabled");
    await receiver.close();
  });

  test("a receiver that always fails gets exactly every try of the schedule (8), then the delivery is failed", async () => {
    const fresh = await api.newIsv();
    const receiver = await startReceiver(() => ({ status: 500 }));
    try {
      const hook = (await createWebhook({ url: receiver.url, scopes: ["merchant"] }, fresh.auth)).json;
      await createMerchant(fresh.auth);
      const [delivery] = await until(
        () => deliveriesOf(hook.id),
        (d) => d[0]?.status === "failed",
        15_000,
      );
      expect(delivery).toMatchObject({ attempts: 8, lastStatusCode: 500, nextAttemptAt: null });
      expect(receiver.received).toHaveLength(8);
      expect(new Set(receiver.received.map((r) => r.headers["webhook-id"])).size).toBe(1);
      const listed = (await api.call("GET", `/v1/webhooks/${hook.id}/deliveries`, { auth: fresh.auth })).json.data[0];
      expect(listed.attempts.map((a: any) => a.status_code)).toEqual(Array(8).fill(500));
    } finally {
      await receiver.close();
    }
  });

  test("a 3xx is a failure and is not followed", async () => {
    const fresh = await api.newIsv();
    const elsewhere = await startReceiver();
    const receiver = await startReceiver((_r, n) =>
      n === 1 ? { status: 302, headers: { location: elsewhere.url } } : { status: 200 },
    );
    try {
      const hook = (await createWebhook({ url: receiver.url, scopes: ["merchant"] }, fresh.auth)).json;
      await createMerchant(fresh.auth);
      const [delivery] = await until(
        () => deliveriesOf(hook.id),
        (d) => d[0]?.status === "succeeded",
      );
      expect(delivery!.attempts).toBe(2);
      const listed = (await api.call("GET", `/v1/webhooks/${hook.id}/deliveries`, { auth: fresh.auth })).json.data[0];
      expect(listed.attempts.map((a: any) => a.status_code)).toEqual([302, 200]);
      expect(elsewhere.received).toHaveLength(0);
    } finally {
      await receiver.close();
      await elsewhere.close();
    }
  });

  test("a receiver that takes more than 10 seconds is a failed try (timed out), retried", async () => {
    const fresh = await api.newIsv();
    const receiver = await startReceiver((_r, n) => (n === 1 ? { status: 200, delayMs: 11_000 } : { status: 200 }));
    try {
      const hook = (await createWebhook({ url: receiver.url, scopes: ["merchant"] }, fresh.auth)).json;
      await createMerchant(fresh.auth);
      await until(
        () => deliveriesOf(hook.id),
        (d) => d[0]?.status === "succeeded",
        20_000,
      );
      const listed = (await api.call("GET", `/v1/webhooks/${hook.id}/deliveries`, { auth: fresh.auth })).json.data[0];
      expect(listed.attempts).toHaveLength(2);
      expect(listed.attempts[0]).toMatchObject({ status_code: null, error: "timed out after 10 s" });
      expect(listed.attempts[0].duration_ms).toBeGreaterThanOrEqual(10_000);
      expect(listed.attempts[0].duration_ms).toBeLessThan(10_500);
      expect(listed.attempts[1].status_code).toBe(200);
    } finally {
      await receiver.close();
    }
  }, 30_000);

  test("a slow receiver does not slow the API or another receiver", async () => {
    const fresh = await api.newIsv();
    const slow = await startReceiver(() => ({ status: 200, delayMs: 3000 }));
    const fast = await startReceiver();
    await createWebhook({ url: slow.url, scopes: ["merchant"] }, fresh.auth);
    await createWebhook({ url: fast.url, scopes: ["merchant"] }, fresh.auth);
    const started = Date.now();
    for (let i = 0; i < 3; i++) await createMerchant(fresh.auth);
    expect(Date.now() - started).toBeLessThan(2000);
    await fast.waitFor((r) => r.length >= 3, 2500);
    // All three reached the fast receiver while the slow one was still holding its first answers.
    expect(fast.received).toHaveLength(3);
    expect(Math.max(...fast.received.map((r) => r.at)) - started).toBeLessThan(2500);
    expect(slow.received.length).toBeLessThanOrEqual(3);
    await slow.close();
    await fast.close();
  });

  test("a receiver answering NUL and control characters is recorded (as U+FFFD), and the delivery succeeds", async () => {
    const fresh = await api.newIsv();
    const http = await import("node:http");
    const server = http.createServer((req, res) =>
      req.resume().on("end", () => res.writeHead(200).end("ok\u0000\u0007fine\tdone")),
    );
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    try {
      const hook = (
        await createWebhook(
          { url: `http://127.0.0.1:${(server.address() as { port: number }).port}/`, scopes: ["merchant"] },
          fresh.auth,
        )
      ).json;
      await createMerchant(fresh.auth);
      const [delivery] = await until(
        () => deliveriesOf(hook.id),
        (d) => d.length === 1 && d[0]!.status === "succeeded",
        10_000,
        "the delivery",
      );
      const [listed] = (await api.call("GET", `/v1/webhooks/${hook.id}/deliveries`, { auth: fresh.auth })).json.data;
      expect(listed.id).toBe(delivery!.id);
      expect(listed.attempts.map((a: { response_excerpt: string }) => a.response_excerpt)).toEqual([
        "ok\uFFFD\uFFFDfine\tdone",
      ]);
    } finally {
      server.close();
    }
  });

  test("a delivery's job holds its account and destination host, the same whether written in SQL or in code", async () => {
    const fresh = await api.newIsv();
    const hook = (
      await createWebhook({ url: "http://Hooks.Example.TEST:8443/in?x=1", scopes: ["merchant"] }, fresh.auth)
    ).json;
    await createMerchant(fresh.auth);
    const [delivery] = await deliveriesOf(hook.id);
    const [job] = await api.db
      .select()
      .from(jobs)
      .where(sql`${jobs.payload}->>'delivery_id' = ${delivery!.id}`);
    expect(job!.concurrencyKeys).toEqual([`account:${fresh.account_id}`, "host:hooks.example.test:8443"]);
    expect(deliveryKeys(fresh.account_id, hook.url)).toEqual(job!.concurrencyKeys);
  });

  test("one ISV's slow endpoint with a backlog larger than every delivery slot does not hold another ISV's delivery", async () => {
    const busy = await api.newIsv();
    const calm = await api.newIsv();
    // Holds every answer 6 s: without caps per host and account, 100 waiting deliveries take every
    // one of the 64 slots for 6 s, and the other ISV's event waits behind them.
    const slow = await startReceiver(() => ({ status: 200, delayMs: 6000 }));
    const other = await startReceiver();
    await createWebhook({ url: slow.url, scopes: ["merchant"] }, busy.auth);
    await createWebhook({ url: other.url, scopes: ["merchant"] }, calm.auth);
    try {
      await api.db.transaction((tx) =>
        recordEvents(
          tx,
          Array.from({ length: 100 }, (_, i) => ({
            accountId: busy.account_id,
            type: "merchant.updated" as const,
            objectId: `mer_backlog${i}`,
            data: { id: `mer_backlog${i}` },
          })),
        ),
      );
      await slow.waitFor((r) => r.length >= env.WEBHOOK_HOST_CONCURRENCY, 5000);
      const started = Date.now();
      const merchant = (await createMerchant(calm.auth)).json;
      await other.waitFor((r) => r.length >= 1, 5000);
      expect(parse(other.received[0]!.body).data.object.id).toBe(merchant.id);
      expect(other.received[0]!.at - started).toBeLessThan(1000);
      // The slow endpoint holds at most its host's share of the slots at once (32 of 64 by default).
      expect(slow.received.length).toBeLessThanOrEqual(env.WEBHOOK_HOST_CONCURRENCY);
    } finally {
      await slow.close();
      await other.close();
    }
  });
});

describe("GET /v1/events", () => {
  test("lists newest first, filters by type, paginates, and is per account", async () => {
    const fresh = await api.newIsv();
    const m = (await createMerchant(fresh.auth)).json;
    await api.call("PATCH", `/v1/merchants/${m.id}`, { auth: fresh.auth, body: { deactivated: true } });
    const all = await api.call("GET", "/v1/events", { auth: fresh.auth });
    expect(all.json.data.map((e: any) => e.type)).toEqual(["merchant.updated", "merchant.created"]);
    const created = await api.call("GET", "/v1/events?type=merchant.created", { auth: fresh.auth });
    expect(created.json.data).toHaveLength(1);
    const page = await api.call("GET", "/v1/events?limit=1", { auth: fresh.auth });
    expect(page.json.has_more).toBe(true);
    const next = await api.call("GET", `/v1/events?limit=1&starting_after=${page.json.data[0].id}`, {
      auth: fresh.auth,
    });
    expect(next.json.data[0].type).toBe("merchant.created");
    expect((await api.call("GET", `/v1/events/${page.json.data[0].id}`, { auth: other.auth })).status).toBe(404);
    expect((await api.call("GET", "/v1/events?type=merchant.exploded", { auth: fresh.auth })).status).toBe(400);
  });
});
