import { afterAll, beforeAll, describe, expect, test } from "vitest";

import { followedNow, followPaymentRequest } from "@/lib/domain/payments/follow-payment-request";

import { startTestApi, type TestApi } from "../helpers/api";
import { approvedMerchant, tokenize } from "../helpers/payments";
import { until } from "../helpers/until";

// Status streams (GET /v1/payment_requests/{id}/stream) are public and each holds a connection:
// 2,800 of them on one request once took the process's memory from 357 to 688 MB and other tenants'
// calls to 8 s. Each process caps them per request, per client address and in all (429 with
// Retry-After past a cap; the page polls), and every stream of one request shares one database read
// per change. Small caps here (3 per request, 5 per address, 8 in all); the loopback test client
// plays the proxy so each test streams from its own addresses.

let api: TestApi;
let isv: Awaited<ReturnType<TestApi["newIsv"]>>;
let merchant: Awaited<ReturnType<typeof approvedMerchant>>;
const open: AbortController[] = [];

beforeAll(async () => {
  api = await startTestApi({
    worker: true,
    trustProxy: "loopback",
    streamCaps: { perRequest: 3, perAddress: 5, perProcess: 8 },
  });
  isv = await api.newIsv("Streams ISV");
  merchant = await approvedMerchant(api, isv);
}, 60_000);
afterAll(async () => {
  for (const c of open) c.abort();
  await api.close();
});

const newRequest = async () =>
  (await api.call("POST", "/v1/scan_to_pay", { auth: isv.auth, body: { merchant_id: merchant.id, amount: 1000 } })).json
    .id as string;

/** Opens a stream from `address`; a 200 stays open (its first event read) until `close`. */
async function stream(requestId: string, address: string) {
  const controller = new AbortController();
  const res = await fetch(`${api.baseUrl}/v1/payment_requests/${requestId}/stream`, {
    headers: { "x-forwarded-for": address },
    signal: controller.signal,
  });
  if (res.status === 200) {
    open.push(controller);
    const reader = res.body!.getReader();
    await reader.read();
  } else await res.text();
  return {
    status: res.status,
    headers: res.headers,
    close: async () => {
      controller.abort();
      await new Promise((resolve) => setTimeout(resolve, 0));
    },
  };
}
const closeAll = async (streams: { close: () => Promise<void> }[]) => {
  for (const s of streams) await s.close();
  // The server frees a place when it notices the stream closed.
  await until(
    async () => followedNow(api.handle).streams,
    (n) => n === 0,
    5_000,
    "the streams to close",
  );
};

describe("status stream caps", () => {
  test("the 4th stream on one request is refused (429, Retry-After) from any address; closing one frees a place", async () => {
    const id = await newRequest();
    const first = [await stream(id, "203.0.113.1"), await stream(id, "203.0.113.2"), await stream(id, "203.0.113.3")];
    expect(first.map((s) => s.status)).toEqual([200, 200, 200]);
    expect(first[0]!.headers.get("cache-control")).toBe("no-store");
    // A sandbox over http sends no HSTS (production does: tests/production.test.ts).
    expect(first[0]!.headers.get("strict-transport-security")).toBeNull();
    const fourth = await stream(id, "203.0.113.4");
    expect(fourth.status).toBe(429);
    expect(fourth.headers.get("retry-after")).toBe("10");
    // Another request is not held back.
    const other = await stream(await newRequest(), "203.0.113.4");
    expect(other.status).toBe(200);
    await first[0]!.close();
    const again = await until(
      () => stream(id, "203.0.113.4"),
      (s) => s.status === 200,
      5_000,
      "a freed place",
    );
    await closeAll([...first, other, again]);
  });

  test("one address holds at most 5 streams across requests; another address still streams", async () => {
    const held = [];
    for (let i = 0; i < 5; i++) held.push(await stream(await newRequest(), "198.51.100.7"));
    expect(held.map((s) => s.status)).toEqual([200, 200, 200, 200, 200]);
    const sixth = await stream(await newRequest(), "198.51.100.7");
    expect(sixth.status).toBe(429);
    const elsewhere = await stream(await newRequest(), "198.51.100.8");
    expect(elsewhere.status).toBe(200);
    await closeAll([...held, elsewhere]);
  });

  test("the process holds at most 8 streams in all", async () => {
    const held = [];
    for (let i = 0; i < 8; i++) held.push(await stream(await newRequest(), `192.0.2.${i + 1}`));
    expect(held.every((s) => s.status === 200)).toBe(true);
    expect((await stream(await newRequest(), "192.0.2.100")).status).toBe(429);
    await closeAll(held);
    const after = await stream(await newRequest(), "192.0.2.100");
    expect(after.status).toBe(200);
    await closeAll([after]);
  });

  test("100 followers of one request share one database read per change, and all hear it", async () => {
    const id = await newRequest();
    let reads = 0;
    const db = new Proxy(api.handle.db, {
      get(target, property, receiver) {
        if (property === "select") reads++;
        return Reflect.get(target, property, receiver);
      },
    });
    const counted = { ...api.handle, db, listen: api.handle.listen.bind(api.handle) };
    const controller = new AbortController();
    const followers = Array.from({ length: 100 }, () => followPaymentRequest(counted, id, controller.signal));
    const firsts = await Promise.all(followers.map((f) => f.next()));
    expect(firsts.every((r) => r.value?.status === "PENDING")).toBe(true);
    expect(followedNow(counted)).toEqual({ requests: 1, streams: 100 });
    expect(reads).toBe(1);
    reads = 0;
    const declined = await api.call("POST", `/v1/payment_requests/${id}/pay`, {
      body: { token: await tokenize(api, merchant.publishableKey, "4000000000000002") },
    });
    expect(declined.json.outcome).toBe("declined");
    const seconds = await Promise.all(followers.map((f) => f.next()));
    expect(seconds.every((r) => r.value?.last_failure_reason === "card_declined")).toBe(true);
    expect(reads).toBe(1);
    controller.abort();
    await Promise.all(followers.map((f) => f.next()));
    expect(followedNow(counted)).toEqual({ requests: 0, streams: 0 });
  });
});
