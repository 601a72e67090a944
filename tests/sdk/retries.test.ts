import http from "node:http";
import type { AddressInfo } from "node:net";

import { afterAll, beforeAll, describe, expect, test } from "vitest";

import { retryDelayMs } from "@/packages/node/src/core";
import {
  Onb,
  OnbConnectionError,
  OnbInvalidRequestError,
  OnbRateLimitError,
  OnbServerError,
} from "@/packages/node/src/index";

// The SDK's retries against a server that misbehaves on purpose: each test scripts the answers, in
// order, and the server records what every try sent.

type Script = ({ status: number; headers?: Record<string, string>; body?: unknown } | "drop")[];
let script: Script = [];
let tries: { method: string; url: string; headers: http.IncomingHttpHeaders; at: number }[] = [];
let server: http.Server;
let baseUrl: string;

beforeAll(async () => {
  server = http.createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      tries.push({ method: req.method!, url: req.url!, headers: req.headers, at: Date.now() });
      const next = script.shift() ?? { status: 200, body: { object: "account", id: "acct_1" } };
      // A dropped connection: no answer at all, as a network failure looks to the client.
      if (next === "drop") return req.socket.destroy();
      res.writeHead(next.status, { "content-type": "application/json", ...next.headers });
      res.end(JSON.stringify(next.body ?? {}));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const client = (more: Partial<ConstructorParameters<typeof Onb>[0]> = {}) =>
  new Onb({ baseUrl, accountSid: "AC_test", secretKey: "sk_test", maxRetryDelayMs: 2_000, ...more });
const rateLimited = (retryAfter: string) => ({
  status: 429,
  headers: { "retry-after": retryAfter },
  body: { error: { type: "rate_limit_error", code: "rate_limited", message: "Too many requests", request_id: "r1" } },
});
const merchant = { object: "merchant", id: "mer_1" };

describe("retries", () => {
  test("a 429 is tried again after its Retry-After, with the same idempotency key, and the 200 is answered", async () => {
    tries = [];
    script = [rateLimited("1"), { status: 200, body: merchant }];
    const created = await client().merchants.create({ phone: "+14155550123" });
    expect(created).toEqual(merchant);
    expect(tries).toHaveLength(2);
    expect(tries.map((t) => t.method)).toEqual(["POST", "POST"]);
    const keys = tries.map((t) => t.headers["idempotency-key"]);
    expect(keys[0]).toMatch(/^[0-9a-f-]{36}$/);
    expect(keys[1]).toBe(keys[0]);
    // Retry-After: 1 is honoured (and jittered by at most a quarter second).
    const waited = tries[1]!.at - tries[0]!.at;
    expect(waited).toBeGreaterThanOrEqual(1_000);
    expect(waited).toBeLessThan(1_900);
  });

  test("5xx answers and dropped connections are tried again; a GET carries no idempotency key", async () => {
    tries = [];
    script = [
      { status: 503, body: { error: { type: "api_error", code: "unavailable", message: "down" } } },
      "drop",
      { status: 200, body: merchant },
    ];
    expect(await client().merchants.retrieve("mer_1")).toEqual(merchant);
    expect(tries).toHaveLength(3);
    expect(tries.every((t) => t.headers["idempotency-key"] === undefined)).toBe(true);
    expect(tries.every((t) => t.url === "/v1/merchants/mer_1")).toBe(true);
  });

  test("after maxRetries the last error is thrown, typed", async () => {
    tries = [];
    script = [rateLimited("0"), rateLimited("0"), rateLimited("0"), { status: 200, body: merchant }];
    const error = await client()
      .merchants.retrieve("mer_1")
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OnbRateLimitError);
    expect(error).toMatchObject({ status: 429, code: "rate_limited", requestId: "r1" });
    expect(tries).toHaveLength(3);
    script = [];

    tries = [];
    script = ["drop", "drop"];
    const dropped = await client({ maxRetries: 1 })
      .merchants.retrieve("mer_1")
      .catch((e: unknown) => e);
    expect(dropped).toBeInstanceOf(OnbConnectionError);
    expect(tries).toHaveLength(2);

    tries = [];
    script = [{ status: 500, body: { error: { type: "api_error", code: "internal", message: "boom" } } }];
    const once = await client({ maxRetries: 0 })
      .merchants.retrieve("mer_1")
      .catch((e: unknown) => e);
    expect(once).toBeInstanceOf(OnbServerError);
    expect(tries).toHaveLength(1);
  });

  test("a 400 is never tried again", async () => {
    tries = [];
    script = [
      {
        status: 400,
        body: { error: { type: "invalid_request_error", code: "parameter_invalid", message: "bad", param: "phone" } },
      },
    ];
    const error = await client()
      .merchants.create({ phone: "x" })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OnbInvalidRequestError);
    expect(error).toMatchObject({ param: "phone", code: "parameter_invalid" });
    expect(tries).toHaveLength(1);
  });

  test("a call's time limit ends a try that gets no answer, as a connection error", async () => {
    tries = [];
    const slow = http.createServer(() => {
      // never answers
    });
    await new Promise<void>((resolve) => slow.listen(0, "127.0.0.1", resolve));
    const slowUrl = `http://127.0.0.1:${(slow.address() as AddressInfo).port}`;
    const error = await new Onb({
      baseUrl: slowUrl,
      accountSid: "a",
      secretKey: "b",
      maxRetries: 0,
      timeoutMs: 200,
    }).merchants
      .retrieve("mer_1")
      .catch((e: unknown) => e);
    slow.closeAllConnections();
    slow.close();
    expect(error).toBeInstanceOf(OnbConnectionError);
    expect((error as Error).message).toContain("no answer within 200 ms");
  });
});

describe("retryDelayMs", () => {
  test("Retry-After in seconds or as a date, capped; else exponential backoff with jitter", () => {
    for (let i = 0; i < 200; i++) {
      const seconds = retryDelayMs(1, "2", 30_000);
      expect(seconds).toBeGreaterThanOrEqual(2_000);
      expect(seconds).toBeLessThanOrEqual(2_250);
      expect(retryDelayMs(1, "120", 5_000)).toBe(5_000);
      const date = retryDelayMs(1, new Date(Date.now() + 3_000).toUTCString(), 30_000);
      expect(date).toBeGreaterThan(1_000);
      expect(date).toBeLessThanOrEqual(3_250);
      // Backoff: 500 ms, 1 s, 2 s..., each between half and all of it.
      for (const [attempt, full] of [
        [1, 500],
        [2, 1_000],
        [3, 2_000],
      ] as const) {
        const d = retryDelayMs(attempt, null, 30_000);
        expect(d).toBeGreaterThanOrEqual(full / 2);
        expect(d).toBeLessThanOrEqual(full);
      }
      expect(retryDelayMs(20, null, 8_000)).toBeLessThanOrEqual(8_000);
    }
  });
});
