import { afterAll, beforeAll, expect, test } from "vitest";

import { createApi } from "@/lib/api/app";
import { env } from "@/lib/env";
import { randomBase62 } from "@/lib/ids";
import { createLimitStore, type LimitStore } from "@/lib/limits";

import { startTestApi, type TestApi } from "../helpers/api";
import { openLink } from "../helpers/onboarding";

// The machine (and CI) runs Redis here; TEST_REDIS_URL points elsewhere.
const REDIS_URL = process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379/0";

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi({ rateLimitPerSecond: 5 });
});
afterAll(() => api.close());

test("GET /v1/account beyond the per-account limit answers 429 with Retry-After, other accounts unaffected", async () => {
  const isv = await api.newIsv();
  const other = await api.newIsv();
  const started = Date.now();
  const answers = await Promise.all(
    Array.from({ length: 12 }, () => api.call("GET", "/v1/account", { auth: isv.auth })),
  );
  const elapsedSeconds = (Date.now() - started) / 1000;
  const ok = answers.filter((a) => a.status === 200).length;
  const limited = answers.filter((a) => a.status === 429);
  // A burst of exactly the limit, plus what the bucket refilled while the burst ran.
  expect(ok).toBeGreaterThanOrEqual(5);
  expect(ok).toBeLessThanOrEqual(5 + Math.floor(elapsedSeconds * 5));
  expect(ok + limited.length).toBe(12);
  expect(limited[0]!.headers.get("retry-after")).toBe("1");
  expect(limited[0]!.json.error).toMatchObject({ type: "rate_limit_error", code: "rate_limited" });
  expect((await api.call("GET", "/v1/account", { auth: other.auth })).status).toBe(200);
});

test("the default limit is 200 requests per second (docs/reference.md section 3)", async () => {
  expect(env.RATE_LIMIT_PER_SECOND).toBe(200);
  // An app built without a limit of its own uses the default; requests that need no database keep the burst fast.
  const app = createApi({ handle: api.handle });
  const started = Date.now();
  const statuses = await Promise.all(
    Array.from({ length: 300 }, async () => (await app.request("/v1/no-such-route")).status),
  );
  const elapsedSeconds = (Date.now() - started) / 1000;
  const passed = statuses.filter((s) => s !== 429).length;
  expect(passed).toBeGreaterThanOrEqual(200);
  expect(passed).toBeLessThanOrEqual(200 + Math.ceil(elapsedSeconds * 200));
  expect(statuses.filter((s) => s === 429).length).toBe(300 - passed);
});

test("a merchant's onboarding session has its own limit: exhausting it never answers 429 to its ISV", async () => {
  const isv = await api.newIsv();
  const merchant = (await api.call("POST", "/v1/merchants", { auth: isv.auth, body: { phone: "+14155550123" } })).json;
  const link = (
    await api.call("POST", "/v1/onboarding_links", {
      auth: isv.auth,
      body: { merchant_id: merchant.id, type: "account_onboarding" },
    })
  ).json;
  const session = await openLink(api, link.url);
  const answers = await Promise.all(
    Array.from({ length: 12 }, () => api.call("GET", "/v1/onboarding/session", { auth: session })),
  );
  expect(answers.filter((a) => a.status === 429).length).toBeGreaterThan(0);
  expect(answers.every((a) => a.status === 200 || a.status === 429)).toBe(true);
  expect((await api.call("GET", "/v1/account", { auth: isv.auth })).status).toBe(200);
});

test("three instances sharing one Redis enforce one limit; with their own memory each would allow its own", async () => {
  const isv = await api.newIsv();
  const prefix = `test-${randomBase62(8)}`;
  const burst = async (stores: LimitStore[]) => {
    await Promise.all(stores.map((s) => s.ready()));
    const servers = stores.map((limits) => createApi({ handle: api.handle, rateLimitPerSecond: 10, limits }));
    // 45 requests spread over the three instances in one burst (well inside one second).
    const statuses = await Promise.all(
      Array.from(
        { length: 45 },
        async (_, i) => (await servers[i % 3]!.request("/v1/account", { headers: { authorization: isv.auth } })).status,
      ),
    );
    await Promise.all(stores.map((s) => s.close()));
    return { ok: statuses.filter((s) => s === 200).length, limited: statuses.filter((s) => s === 429).length };
  };
  const shared = await burst([1, 2, 3].map(() => createLimitStore({ redisUrl: REDIS_URL, prefix })));
  expect(shared.ok).toBeGreaterThanOrEqual(10);
  expect(shared.ok).toBeLessThanOrEqual(20); // one limit of 10/s (20 only if the burst straddled a second)
  expect(shared.ok + shared.limited).toBe(45);
  const separate = await burst([1, 2, 3].map(() => createLimitStore()));
  expect(separate.ok).toBeGreaterThanOrEqual(30);
});

test("with Redis gone, an instance keeps limiting on its own memory instead of failing requests", async () => {
  const isv = await api.newIsv();
  const store = createLimitStore({ redisUrl: "redis://127.0.0.1:1/0", prefix: `gone-${randomBase62(6)}` });
  const app = createApi({ handle: api.handle, rateLimitPerSecond: 5, limits: store });
  const statuses = await Promise.all(
    Array.from(
      { length: 12 },
      async () => (await app.request("/v1/account", { headers: { authorization: isv.auth } })).status,
    ),
  );
  await store.close();
  expect(statuses.filter((s) => s === 200).length).toBeGreaterThanOrEqual(5);
  expect(statuses.filter((s) => s === 200).length).toBeLessThanOrEqual(10);
  expect(statuses.every((s) => s === 200 || s === 429)).toBe(true);
});

// Last in this file: it leaves this client address refused for a minute.
test("wrong credentials from one address: after 60 in a minute, 429; a valid key from that address still answers", async () => {
  const isv = await api.newIsv();
  const bad = `Basic ${Buffer.from("AC00000000000000000000000000000000:sk_test_wrong").toString("base64")}`;
  const statuses: number[] = [];
  for (let i = 0; i < 62; i++) statuses.push((await api.call("GET", "/v1/account", { auth: bad })).status);
  expect(statuses.slice(0, 60)).toEqual(Array(60).fill(401));
  expect(statuses.slice(60)).toEqual([429, 429]);
  const limited = await api.call("GET", "/v1/account", { auth: bad });
  expect(limited.json.error.code).toBe("rate_limited");
  expect(limited.json.error.message).toBe("Too many requests with wrong credentials from this address");
  expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
  // The same address, the ISV's valid key (every ISV behind one NAT): never refused.
  const valid = await api.call("GET", "/v1/account", { auth: isv.auth });
  expect(valid.status).toBe(200);
  expect(valid.json.id).toBe(isv.account_id);
  // And its wrong secret is still refused (429, the address's budget is spent), not let through.
  const wrongSecret = `Basic ${Buffer.from(`${isv.account_sid}:sk_test_${"x".repeat(40)}`).toString("base64")}`;
  expect((await api.call("GET", "/v1/account", { auth: wrongSecret })).status).toBe(429);
});
