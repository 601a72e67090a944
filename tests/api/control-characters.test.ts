import { afterAll, beforeAll, describe, expect, test } from "vitest";

import { startTestApi, type TestApi } from "../helpers/api";
import { openLink } from "../helpers/onboarding";
import { approvedMerchant } from "../helpers/payments";

// NUL and other control characters in every string of every write operation's documented example,
// and in the query string and path: the answer is never a 500 (PostgreSQL refuses NUL in text).
// The operations and their examples come from the published OpenAPI document, so a new operation
// is fuzzed without anyone adding it here.

let api: TestApi;
let isv: Awaited<ReturnType<TestApi["newIsv"]>>;
let auth: Record<string, string>;
let doc: any;

beforeAll(async () => {
  api = await startTestApi({ worker: true });
  isv = await api.newIsv("Fuzz ISV");
  const merchant = await approvedMerchant(api, isv);
  const open = (await api.call("POST", "/v1/merchants", { auth: isv.auth, body: { phone: "+14155550123" } })).json;
  const link = (
    await api.call("POST", "/v1/onboarding_links", {
      auth: isv.auth,
      body: { merchant_id: open.id, type: "account_onboarding" },
    })
  ).json;
  auth = {
    isv: isv.auth,
    session: await openLink(api, link.url),
    publishable: `Bearer ${merchant.publishableKey}`,
    merchantId: merchant.id,
  };
  doc = (await api.call("GET", "/v1/openapi.json")).json;
}, 60_000);
afterAll(() => api.close());

/** Every string leaf of a JSON value, by path. */
function stringPaths(value: unknown, path: (string | number)[] = []): (string | number)[][] {
  if (typeof value === "string") return [path];
  if (Array.isArray(value)) return value.flatMap((v, i) => stringPaths(v, [...path, i]));
  if (value && typeof value === "object")
    return Object.entries(value).flatMap(([k, v]) => stringPaths(v, [...path, k]));
  return [];
}
function withValue(value: any, path: (string | number)[], replacement: string): any {
  const copy = structuredClone(value);
  let target = copy;
  for (const key of path.slice(0, -1)) target = target[key];
  target[path[path.length - 1]!] = replacement;
  return copy;
}
const credentialFor = (operation: any) => {
  const schemes = (operation.security ?? [{ "api-key-secret": [] }]).flatMap((s: object) => Object.keys(s));
  if (schemes.includes("merchant-onboarding-session-token")) return auth.session;
  if (schemes.includes("tokenizer-publishable-key")) return auth.publishable;
  if (schemes.length === 0) return undefined;
  return auth.isv;
};
const concretePath = (template: string) =>
  template.replace(/\{merchant_id\}|\{merchantId\}/g, auth.merchantId!).replace(/\{[^}]+\}/g, "x_fuzz");

describe("control characters", () => {
  test("every string field of every documented write body: 400 naming the field, never a 500", async () => {
    const seen: string[] = [];
    for (const [template, item] of Object.entries<any>(doc.paths)) {
      for (const method of ["post", "patch", "put"]) {
        const operation = item[method];
        const example = operation?.requestBody?.content?.["application/json"]?.example;
        if (!example) continue;
        for (const path of stringPaths(example)) {
          for (const bad of ["a\u0000b", "\u0007bell", "x\u001b[31m"]) {
            const body = withValue(example, path, bad);
            const res = await api.call(method.toUpperCase(), concretePath(template), {
              auth: credentialFor(operation),
              body,
            });
            seen.push(`${method} ${template} ${path.join(".")}`);
            expect(res.status, `${method} ${template} ${path.join(".")} → ${res.text}`).toBe(400);
            expect(res.json.error.errors.map((e: any) => e.param)).toContain(
              path.reduce<string>((a, p) => (typeof p === "number" ? `${a}[${p}]` : a ? `${a}.${p}` : p), ""),
            );
          }
        }
      }
    }
    // The sweep really covered the API (merchants, webhooks, the session, payments, tokens...).
    expect(seen.length).toBeGreaterThan(100);
    for (const op of [
      "post /v1/merchants",
      "post /v1/webhooks",
      "patch /v1/onboarding/session",
      "post /v1/invoice",
      "post /v1/tokens",
      "patch /v1/account",
    ]) {
      expect(seen.some((s) => s.startsWith(op))).toBe(true);
    }
  }, 120_000);

  test("tab, line feed and carriage return are ordinary text where text is allowed", async () => {
    const res = await api.call("POST", "/v1/webhooks", {
      auth: isv.auth,
      body: { url: "https://example.com/hooks", scopes: ["merchant"], description: "line one\nline two\tend\r" },
    });
    expect(res.status).toBe(200);
    expect(res.json.description).toBe("line one\nline two\tend\r");
  });

  test("in the query string, the path and a field name: 400, never a 500", async () => {
    for (const path of [
      "/v1/merchants?starting_after=mer_%00x",
      "/v1/charges?merchant_id=%01",
      "/v1/merchants/mer_%00abc",
      "/v1/events?type=%7F",
      "/v1/payment_requests/pr_%00",
    ]) {
      const res = await api.call("GET", path, { auth: isv.auth });
      expect(res.status, `${path} → ${res.text}`).toBe(400);
    }
    const key = await api.call("POST", "/v1/merchants", {
      auth: isv.auth,
      body: { phone: "+14155550123", "\u0000": 1 },
    });
    expect(key.status).toBe(400);
  });

  test("a malformed Origin header with the session cookie is refused, not a 500", async () => {
    const res = await api.call("PATCH", "/v1/onboarding/session", {
      headers: { cookie: `onboarding_session=${auth.session!.slice(7)}`, origin: "http://[not a url" },
      body: { merchant: { doing_business_as: "Noodles" } },
    });
    expect(res.status).toBe(403);
    expect(res.json.error.code).toBe("cross_site_request");
  });
});
