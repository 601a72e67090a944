import type { AddressInfo } from "node:net";

import { afterAll, beforeAll, expect, test } from "vitest";

import { createApi } from "@/lib/api/app";
import { env } from "@/lib/env";
import { insertJob } from "@/lib/jobs/queue";
import { serveMetrics } from "@/lib/ops/metrics";

import { startTestApi, type TestApi } from "../helpers/api";

// This file counts every request the process answered: it runs in an own module graph
// (vitest.config.ts), where no file before it has counted any.

// GET /metrics (docs/reference.md section 17): Prometheus's text format with the scrape's token;
// requests by route template (never a raw path or an id), jobs waiting, deliveries, the process.

const token = "metrics-token-0123456789";
let api: TestApi;
let isv: Awaited<ReturnType<TestApi["newIsv"]>>;

beforeAll(async () => {
  api = await startTestApi({ metricsToken: token });
  isv = await api.newIsv("Metrics ISV");
}, 60_000);
afterAll(() => api.close());

const scrape = (authorization?: string) =>
  fetch(`${api.baseUrl}/metrics`, { headers: authorization ? { authorization } : {} });

test("a scrape needs the token; wrong or missing: 401", async () => {
  for (const auth of [undefined, "Bearer wrong-token-0123456789", `Basic ${token}`, `Bearer ${token}x`]) {
    const res = await scrape(auth);
    expect(res.status, String(auth)).toBe(401);
    expect((await res.json()).error.code).toBe("unauthenticated");
  }
});

test("requests are counted by route template and status, timed, and no id or account appears in any label", async () => {
  const created = await api.call("POST", "/v1/merchants", { auth: isv.auth, body: { phone: "+14155550123" } });
  expect(created.status).toBe(200);
  await api.call("GET", `/v1/merchants/${created.json.id}`, { auth: isv.auth });
  await api.call("GET", "/v1/merchants/mer_doesnotexist0000000000", { auth: isv.auth });
  await api.call("GET", "/v1/merchants/mer_doesnotexist0000000000");
  await insertJob(api.db, "underwriting", { merchant_id: created.json.id }, { runAt: new Date(Date.now() - 5000) });

  const res = await scrape(`Bearer ${token}`);
  expect(res.status).toBe(200);
  expect(res.headers.get("content-type")).toMatch(/^text\/plain; version=0\.0\.4/);
  const text = await res.text();
  const line = (prefix: string) => text.split("\n").find((l) => l.startsWith(prefix));
  expect(line('http_requests_total{method="POST",route="/v1/merchants",status="200"}')).toMatch(/ 1$/);
  expect(line('http_requests_total{method="GET",route="/v1/merchants/:merchant_id",status="200"}')).toMatch(/ 1$/);
  expect(line('http_requests_total{method="GET",route="/v1/merchants/:merchant_id",status="404"}')).toMatch(/ 1$/);
  expect(line('http_requests_total{method="GET",route="/v1/merchants/:merchant_id",status="401"}')).toMatch(/ 1$/);
  expect(
    line('http_request_duration_seconds_count{method="GET",route="/v1/merchants/:merchant_id",status_class="4xx"}'),
  ).toMatch(/ 2$/);
  expect(line('jobs_waiting{type="underwriting"}')).toMatch(/ [1-9]\d*$/);
  expect(Number(line('jobs_oldest_age_seconds{type="underwriting"}')!.split(" ")[1])).toBeGreaterThanOrEqual(4);
  expect(line('jobs_waiting{type="webhook_delivery"}')).toBeDefined();
  expect(line('webhook_deliveries_total{outcome="delivered"}')).toBeDefined();
  expect(line("process_cpu_user_seconds_total")).toBeDefined();
  expect(line("nodejs_eventloop_lag_seconds")).toBeDefined();
  // Bounded labels: no id, account or raw path anywhere.
  expect(text).not.toMatch(/mer_|acct_|AC[0-9a-f]{32}|doesnotexist/);
  // The probes and the scrapes themselves are not counted.
  expect(text).not.toMatch(/route="\/(metrics|healthz|readyz)"/);
});

test("without a token configured, /metrics does not exist", async () => {
  const bare = createApi({ handle: api.handle });
  const res = await bare.request("/metrics", { headers: { authorization: `Bearer ${token}` } });
  expect(res.status).toBe(404);
  expect((await res.json()).error.code).toBe("route_not_found");
});

test("METRICS_PORT listens on loopback unless told (its metrics need no token)", async () => {
  expect(env.METRICS_HOST).toBe("127.0.0.1");
  const server = serveMetrics(0, env.METRICS_HOST);
  await new Promise<void>((resolve) => server.once("listening", () => resolve()));
  try {
    expect((server.address() as AddressInfo).address).toBe("127.0.0.1");
  } finally {
    await new Promise((resolve) => server.close(resolve));
  }
});

test("jobs_waiting counts only jobs due now: tomorrow's scheduled jobs are not a backlog", async () => {
  const waiting = async () => {
    const text = await (await scrape(`Bearer ${token}`)).text();
    const line = text.split("\n").find((l) => l.startsWith('jobs_waiting{type="retention_purge"}'));
    return Number(line?.split(" ")[1] ?? 0);
  };
  const before = await waiting();
  const tomorrow = new Date(Date.now() + 24 * 3600_000);
  for (let i = 0; i < 5; i++)
    await insertJob(api.db, "retention_purge", { at: tomorrow.toISOString() }, { runAt: tomorrow });
  expect(await waiting()).toBe(before);
});
