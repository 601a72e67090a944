import { afterAll, beforeAll, expect, test } from "vitest";
import { startTestApi, type TestApi } from "../helpers/api";
import { createApi } from "@/lib/api/app";
import { env } from "@/lib/env";
import { openLink } from "../helpers/onboarding";

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi({ rateLimitPerSecond: 5 });
});
afterAll(() => api.close());

test("GET /v1/account beyond the per-account limit answers 429 with Retry-After, other accounts unaffected", async () => {
  const isv = await api.newIsv();
  const other = await api.newIsv();
  const started = Date.now();
  const answers = await Promise.all(Array.from({ length: 12 }, () => api.call("GET", "/v1/account", { auth: isv.auth })));
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

test("the default limit is 200 requests per second (CONTRACT.md section 3)", async () => {
  expect(env.RATE_LIMIT_PER_SECOND).toBe(200);
  // An app built without a limit of its own uses the default; requests that need no database keep the burst fast.
  const app = createApi({ handle: api.handle });
  const started = Date.now();
  const statuses = await Promise.all(Array.from({ length: 300 }, async () => (await app.request("/v1/no-such-route")).status));
  const elapsedSeconds = (Date.now() - started) / 1000;
  const passed = statuses.filter((s) => s !== 429).length;
  expect(passed).toBeGreaterThanOrEqual(200);
  expect(passed).toBeLessThanOrEqual(200 + Math.ceil(elapsedSeconds * 200));
  expect(statuses.filter((s) => s === 429).length).toBe(300 - passed);
});

test("a merchant's onboarding session has its own limit: exhausting it never answers 429 to its ISV", async () => {
  const isv = await api.newIsv();
  const merchant = (await api.call("POST", "/v1/merchants", { auth: isv.auth, body: { phone: "+14155550123" } })).json;
  const link = (await api.call("POST", "/v1/onboarding_links", { auth: isv.auth, body: { merchant_id: merchant.id, type: "account_onboarding" } })).json;
  const session = await openLink(api, link.url);
  const answers = await Promise.all(Array.from({ length: 12 }, () => api.call("GET", "/v1/onboarding/session", { auth: session })));
  expect(answers.filter((a) => a.status === 429).length).toBeGreaterThan(0);
  expect(answers.every((a) => a.status === 200 || a.status === 429)).toBe(true);
  expect((await api.call("GET", "/v1/account", { auth: isv.auth })).status).toBe(200);
});

// Last in this file: it leaves this client address refused for a minute.
test("wrong credentials from one address: after 60 in a minute, 429 before any lookup", async () => {
  const bad = `Basic ${Buffer.from("AC00000000000000000000000000000000:sk_test_wrong").toString("base64")}`;
  const statuses: number[] = [];
  for (let i = 0; i < 62; i++) statuses.push((await api.call("GET", "/v1/account", { auth: bad })).status);
  expect(statuses.slice(0, 60)).toEqual(Array(60).fill(401));
  expect(statuses.slice(60)).toEqual([429, 429]);
  const limited = await api.call("GET", "/v1/account", { auth: bad });
  expect(limited.json.error.code).toBe("rate_limited");
  expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
});
