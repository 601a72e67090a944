import type { AddressInfo } from "node:net";

import { serve } from "@hono/node-server";
import { afterAll, beforeAll, describe, expect, test } from "vitest";

import { createApi } from "@/lib/api/app";
import { compileTrustProxy } from "@/lib/net/client-address";

import { startTestApi, type TestApi } from "../helpers/api";
import { signInWithCode } from "../helpers/sign-in";

// Behind a load balancer every request arrives from the balancer's address. With TRUST_PROXY the
// limits key on the client it forwarded (X-Forwarded-For), so one client's wrong keys and bad
// sign-ins never put another client at 429; a client's own X-Forwarded-For entries are not believed.
// The test client connects over loopback and plays the balancer: it sends X-Forwarded-For itself.

const attacker = "203.0.113.7";
const customer = "198.51.100.9";
const from = (address: string) => ({ "x-forwarded-for": address });
const wrongKey = (i: number) =>
  `Basic ${Buffer.from(`AC${String(i).padStart(32, "0")}:sk_test_wrong`).toString("base64")}`;

/** Another app on the same database with its own TRUST_PROXY (the embedded database has one owner). */
async function serveApp(api: TestApi, trustProxy: string | undefined) {
  const server = serve({
    fetch: createApi({ handle: api.handle, rateLimitPerSecond: 100_000, trustProxy }).fetch,
    port: 0,
    hostname: "127.0.0.1",
  });
  await new Promise<void>((resolve) => server.once("listening", () => resolve()));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    async call(method: string, path: string, init: { auth?: string; headers?: Record<string, string> }) {
      const res = await fetch(base + path, {
        method,
        headers: { ...init.headers, ...(init.auth ? { authorization: init.auth } : {}) },
      });
      await res.text();
      return { status: res.status };
    },
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}

async function attack(api: TestApi, isv: { user_email: string }) {
  const keys: number[] = [];
  for (let i = 0; i < 100; i++)
    keys.push((await api.call("GET", "/v1/account", { auth: wrongKey(i), headers: from(attacker) })).status);
  const signIns: number[] = [];
  for (let i = 0; i < 60; i++)
    signIns.push(
      (
        await api.call("POST", "/v1/auth/token", {
          body: { email: isv.user_email, password: `wrong-${i}` },
          headers: from(attacker),
        })
      ).status,
    );
  return { keys, signIns };
}

describe("behind a trusted proxy (TRUST_PROXY=loopback)", () => {
  let api: TestApi;
  beforeAll(async () => {
    api = await startTestApi({ trustProxy: "loopback" });
  });
  afterAll(() => api.close());

  test("one client's 100 wrong keys and 60 bad sign-ins leave another client's calls and sign-ins at 200", async () => {
    const isv = await api.newIsv();
    const { keys, signIns } = await attack(api, isv);
    // The attacker itself is stopped: 401 until its address's budget is spent, then 429.
    expect(keys.slice(0, 60)).toEqual(Array(60).fill(401));
    expect(keys.slice(60)).toEqual(Array(40).fill(429));
    expect(signIns).toEqual([...Array(10).fill(401), ...Array(50).fill(429)]);
    // The customer, through the same balancer, is not.
    expect((await api.call("GET", "/v1/account", { auth: isv.auth, headers: from(customer) })).status).toBe(200);
    const signIn = await signInWithCode(
      api,
      { email: isv.user_email, password: isv.password },
      { headers: from(customer) },
    );
    expect(signIn.status).toBe(200);
  });

  test("a client cannot pass for another by sending its own X-Forwarded-For: only the hops the proxy added count", async () => {
    // TRUST_PROXY=1: the balancer in front appends the address it saw; what the client wrote before it is not believed.
    const hop = await serveApp(api, "1");
    try {
      const other = "203.0.113.50";
      const spoofed = { "x-forwarded-for": `${customer}, ${other}` };
      for (let i = 0; i < 60; i++) await hop.call("GET", "/v1/account", { auth: wrongKey(i), headers: spoofed });
      expect((await hop.call("GET", "/v1/account", { auth: wrongKey(99), headers: from(other) })).status).toBe(429);
      const isv = await api.newIsv();
      expect((await hop.call("GET", "/v1/account", { auth: isv.auth, headers: from(customer) })).status).toBe(200);
    } finally {
      await hop.close();
    }
  });

  test("wrong secrets for one key from many addresses: 429 past the budget, and the right secret still works", async () => {
    const isv = await api.newIsv();
    const sid = Buffer.from(isv.auth.slice(6), "base64").toString().split(":")[0];
    const wrong = `Basic ${Buffer.from(`${sid}:sk_test_wrong`).toString("base64")}`;
    const statuses: number[] = [];
    for (let i = 0; i < 62; i++)
      statuses.push((await api.call("GET", "/v1/account", { auth: wrong, headers: from(`192.0.2.${i}`) })).status);
    expect(statuses.slice(0, 60)).toEqual(Array(60).fill(401));
    expect(statuses.slice(60)).toEqual([429, 429]);
    expect((await api.call("GET", "/v1/account", { auth: isv.auth, headers: from("192.0.2.200") })).status).toBe(200);
  });

  test("without TRUST_PROXY (the default) X-Forwarded-For is ignored: every client is the socket's address", async () => {
    const plain = await serveApp(api, undefined);
    try {
      const isv = await api.newIsv();
      const bad = wrongKey(7);
      for (let i = 0; i < 60; i++) await plain.call("GET", "/v1/account", { auth: bad, headers: from(attacker) });
      // Nothing forwarded is believed: the "customer" shares the attacker's (the socket's) address, so
      // its own wrong key is refused at once (429); its valid key is never refused for the address's failures.
      expect((await plain.call("GET", "/v1/account", { auth: wrongKey(8), headers: from(customer) })).status).toBe(429);
      expect((await plain.call("GET", "/v1/account", { auth: isv.auth, headers: from(customer) })).status).toBe(200);
    } finally {
      await plain.close();
    }
  });
});

test("TRUST_PROXY's forms: nothing, a hop count, addresses and ranges", () => {
  expect(compileTrustProxy(undefined)("127.0.0.1", 0)).toBe(false);
  expect(compileTrustProxy("0")("127.0.0.1", 0)).toBe(false);
  const twoHops = compileTrustProxy("2");
  expect([twoHops("10.0.0.1", 0), twoHops("10.0.0.2", 1), twoHops("10.0.0.3", 2)]).toEqual([true, true, false]);
  const ranges = compileTrustProxy("10.0.0.0/8, loopback");
  expect([ranges("10.1.2.3", 0), ranges("127.0.0.1", 0), ranges("203.0.113.7", 0)]).toEqual([true, true, false]);
});

test("clientAddress (the pages' server code reads it too): the socket's peer, or the hop before the trusted proxies", async () => {
  const { clientAddress } = await import("@/lib/net/client-address");
  const req = (peer: string, forwarded?: string) =>
    ({ socket: { remoteAddress: peer }, headers: forwarded ? { "x-forwarded-for": forwarded } : {} }) as never;
  expect(clientAddress(req("10.0.0.5", "203.0.113.7"), compileTrustProxy(undefined))).toBe("10.0.0.5");
  expect(clientAddress(req("10.0.0.5", "203.0.113.7"), compileTrustProxy("10.0.0.0/8"))).toBe("203.0.113.7");
  expect(clientAddress(req("10.0.0.5", "198.51.100.9, 203.0.113.7"), compileTrustProxy("1"))).toBe("203.0.113.7");
  expect(clientAddress(req("10.0.0.5", "198.51.100.9, 203.0.113.7"), compileTrustProxy("2"))).toBe("198.51.100.9");
  expect(clientAddress(req("192.0.2.1", "203.0.113.7"), compileTrustProxy("10.0.0.0/8"))).toBe("192.0.2.1");
});

test("RFC 7239's Forwarded header, when the proxies write that one (FORWARDED_HEADER=forwarded)", async () => {
  const { clientAddress, forwardedFor } = await import("@/lib/net/client-address");
  const req = (peer: string, headers: Record<string, string>) =>
    ({ socket: { remoteAddress: peer }, headers }) as never;
  expect(forwardedFor('for="[2001:db8:cafe::17]:4711";proto=https, for="192.0.2.60:8080", for=198.51.100.9')).toEqual([
    "2001:db8:cafe::17",
    "192.0.2.60",
    "198.51.100.9",
  ]);
  expect(forwardedFor("for=unknown, for=_hidden")).toEqual(["unknown", "_hidden"]);
  expect(forwardedFor('for="unterminated')).toBeNull();
  const one = compileTrustProxy("1");
  // The balancer appended the client it saw; what the client wrote before it is not believed.
  expect(clientAddress(req("10.0.0.5", { forwarded: "for=6.6.6.6, for=203.0.113.7" }), one, "forwarded")).toBe(
    "203.0.113.7",
  );
  expect(clientAddress(req("10.0.0.5", { forwarded: 'for="[2001:db8::1]:4711";proto=https' }), one, "forwarded")).toBe(
    "2001:db8::1",
  );
  // Reading Forwarded, a client's own X-Forwarded-For is ignored (the proxy passed it through untouched).
  expect(clientAddress(req("10.0.0.5", { "x-forwarded-for": "6.6.6.6" }), one, "forwarded")).toBe("10.0.0.5");
  // And reading X-Forwarded-For, a client's own Forwarded is ignored.
  expect(clientAddress(req("10.0.0.5", { forwarded: "for=6.6.6.6" }), one, "x-forwarded-for")).toBe("10.0.0.5");
  // A malformed header (a client's doing): the trusted peer's own address, never a value from it.
  expect(clientAddress(req("10.0.0.5", { forwarded: 'for="6.6.6.6' }), one, "forwarded")).toBe("10.0.0.5");
  // Behind no trusted proxy, neither header means anything.
  expect(
    clientAddress(req("10.0.0.5", { forwarded: "for=203.0.113.7" }), compileTrustProxy(undefined), "forwarded"),
  ).toBe("10.0.0.5");
});
