import { randomBytes, scryptSync } from "node:crypto";

import { eq } from "drizzle-orm";
import { decodeJwt } from "jose";
import { afterAll, beforeAll, describe, expect, test } from "vitest";

import { MAX_BODY_BYTES } from "@/lib/api/middleware/body";
import { passwordHashParams } from "@/lib/auth/secrets";
import { users } from "@/lib/db/schema";
import { verifyCustomDomain } from "@/lib/domain/accounts/verify-custom-domain";

import { startTestApi, type TestApi } from "../helpers/api";
import { signInWithCode } from "../helpers/sign-in";

let api: TestApi;
let isv: Awaited<ReturnType<TestApi["newIsv"]>>;
let other: Awaited<ReturnType<TestApi["newIsv"]>>;

beforeAll(async () => {
  api = await startTestApi();
  isv = await api.newIsv("Acme POS");
  other = await api.newIsv("Other ISV");
});
afterAll(() => api.close());

const expectErrorShape = (
  res: { status: number; json: any; headers: Headers; text: string },
  status: number,
  type: string,
  code?: string,
) => {
  expect(res.status).toBe(status);
  expect(res.json.error.type).toBe(type);
  if (code) expect(res.json.error.code).toBe(code);
  expect(typeof res.json.error.message).toBe("string");
  expect(res.json.error.request_id).toMatch(/^req_/);
  expect(res.headers.get("request-id")).toBe(res.json.error.request_id);
  expect(res.text).not.toMatch(/at .*\.ts|select |insert |sk_test_/i);
};

describe("authentication", () => {
  test("GET /v1/account answers 401 without credentials", async () => {
    expectErrorShape(await api.call("GET", "/v1/account"), 401, "authentication_error");
  });

  test.each([
    ["a wrong secret", () => `Basic ${Buffer.from(`${isv.account_sid}:sk_test_wrong`).toString("base64")}`],
    ["an unknown sid", () => `Basic ${Buffer.from(`ACdeadbeef:${isv.secret_key}`).toString("base64")}`],
    [
      "another account's secret",
      () => `Basic ${Buffer.from(`${isv.account_sid}:${other.secret_key}`).toString("base64")}`,
    ],
    ["garbage Basic", () => "Basic %%%"],
    ["a forged Bearer token", () => "Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ4In0.c2lnbmF0dXJl"],
    ["an unknown scheme", () => "Digest abc"],
  ])("GET /v1/account answers 401 for %s", async (_name, auth) => {
    expectErrorShape(await api.call("GET", "/v1/account", { auth: auth() }), 401, "authentication_error");
  });

  test("GET /v1/account answers the caller's account with the master API key", async () => {
    const res = await api.call("GET", "/v1/account", { auth: isv.auth });
    expect(res.status).toBe(200);
    expect(res.headers.get("request-id")).toMatch(/^req_/);
    expect(res.json).toMatchObject({
      object: "account",
      id: isv.account_id,
      type: "isv",
      account_sid: isv.account_sid,
      name: "Acme POS",
    });
    expect(res.json.defaults.display_name).toBe("Acme POS");
    expect(res.json.settings).toMatchObject({
      notifications: { information_requested: "both" },
      onboarding_link_ttl_seconds: 86400,
      allow_skip_device_selection: false,
      device_selection_required: true,
    });
    expect(res.json.default_capabilities.options.cash_discount.advantage_rate).toBe("4.00");
    expect(res.text).not.toContain(isv.secret_key);
  });

  test("POST /v1/auth/token issues a JWT accepted by GET /v1/account", async () => {
    const token = await signInWithCode(api, { email: isv.user_email, password: isv.password });
    expect(token.status).toBe(200);
    expect(token.json).toMatchObject({ token_type: "Bearer", expires_in: 3600 });
    // The token itself lives as long as expires_in says (not the constant: the token's own claims).
    const claims = decodeJwt(token.json.access_token);
    expect(claims.exp! - claims.iat!).toBe(3600);
    expect(Math.abs(claims.iat! - Date.now() / 1000)).toBeLessThan(60);
    const res = await api.call("GET", "/v1/account", { auth: `Bearer ${token.json.access_token}` });
    expect(res.status).toBe(200);
    expect(res.json.id).toBe(isv.account_id);
  });

  test.each([
    ["a wrong password", () => ({ email: isv.user_email, password: "not-the-password" })],
    ["an unknown e-mail", () => ({ email: "nobody@example.test", password: "whatever-password" })],
  ])("POST /v1/auth/token answers 401 for %s", async (_name, body) => {
    expectErrorShape(
      await api.call("POST", "/v1/auth/token", { body: body() }),
      401,
      "authentication_error",
      "invalid_credentials",
    );
  });

  test("POST /v1/auth/token: the 11th attempt in 5 minutes for one e-mail and address is 429, even with the right password", async () => {
    const fresh = await api.newIsv();
    for (let i = 0; i < 10; i++) {
      const res = await api.call("POST", "/v1/auth/token", {
        body: { email: fresh.user_email, password: `wrong-${i}` },
      });
      expect(res.status, `attempt ${i + 1}`).toBe(401);
    }
    const limited = await api.call("POST", "/v1/auth/token", {
      body: { email: fresh.user_email, password: fresh.password },
    });
    expectErrorShape(limited, 429, "rate_limit_error", "too_many_sign_in_attempts");
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(290);
    expect(Number(limited.headers.get("retry-after"))).toBeLessThanOrEqual(300);
    // Another e-mail from the same address is counted apart.
    const other = await api.newIsv();
    expect((await signInWithCode(api, { email: other.user_email, password: other.password })).status).toBe(200);
  });

  test("POST /v1/auth/token lists every missing field", async () => {
    const res = await api.call("POST", "/v1/auth/token", { body: {} });
    expectErrorShape(res, 400, "invalid_request_error", "parameter_missing");
    expect(res.json.error.errors.map((e: any) => e.param).sort()).toEqual(["email", "password"]);
    expect(res.json.error.param).toBe(res.json.error.errors[0].param);
  });
});

describe("PATCH /v1/account", () => {
  test("validates everything at once and saves nothing from an invalid request", async () => {
    const res = await api.call("PATCH", "/v1/account", {
      auth: isv.auth,
      body: {
        defaults: { display_name: "Changed", primary_color: "red; background:url(x)" },
        default_capabilities: {
          types: ["flat_rate", "crypto"],
          options: { cash_discount: { advantage_rate: "5.00" } },
        },
        settings: { notifications: { information_requested: "nobody" }, onboarding_link_ttl_seconds: 60 },
      },
    });
    expectErrorShape(res, 400, "invalid_request_error");
    const params = res.json.error.errors.map((e: any) => e.param);
    expect(params).toEqual(
      expect.arrayContaining([
        "defaults.primary_color",
        "default_capabilities.types[1]",
        "default_capabilities.options.cash_discount.advantage_rate",
        "settings.notifications.information_requested",
        "settings.onboarding_link_ttl_seconds",
      ]),
    );
    const after = await api.call("GET", "/v1/account", { auth: isv.auth });
    expect(after.json.defaults.display_name).toBe("Acme POS");
  });

  test("rejects unknown fields by name", async () => {
    const res = await api.call("PATCH", "/v1/account", { auth: isv.auth, body: { defaults: { colour: "#fff" } } });
    expectErrorShape(res, 400, "invalid_request_error", "parameter_unknown");
    expect(res.json.error.param).toBe("defaults.colour");
  });

  test.each(["4.00", "3.99", "3.75", "3.50", "3.25", "3.00"])("accepts advantage_rate %s", async (rate) => {
    const res = await api.call("PATCH", "/v1/account", {
      auth: isv.auth,
      body: { default_capabilities: { options: { cash_discount: { advantage_rate: rate } } } },
    });
    expect(res.status).toBe(200);
    expect(res.json.default_capabilities.options.cash_discount.advantage_rate).toBe(rate);
  });

  test.each(["isv", "merchant", "both"])("accepts notifications.information_requested %s", async (target) => {
    const res = await api.call("PATCH", "/v1/account", {
      auth: isv.auth,
      body: { settings: { notifications: { information_requested: target } } },
    });
    expect(res.status).toBe(200);
    expect(res.json.settings.notifications.information_requested).toBe(target);
  });

  test("merges, clears with null, and changes only the caller's account", async () => {
    const res = await api.call("PATCH", "/v1/account", {
      auth: isv.auth,
      body: {
        defaults: {
          primary_color: "#0E7490",
          redirect_url: "https://acme.example/done",
          support: { email: "help@acme.example" },
        },
        default_capabilities: { types: ["cash_discount", "ach"], options: { ach: { monthly_fee: "12.50" } } },
        settings: { onboarding_link_ttl_seconds: 3600, allow_skip_device_selection: true },
      },
    });
    expect(res.status).toBe(200);
    expect(res.json.defaults).toMatchObject({
      display_name: "Acme POS",
      primary_color: "#0E7490",
      redirect_url: "https://acme.example/done",
    });
    expect(res.json.default_capabilities.types).toEqual(["cash_discount", "ach"]);
    expect(res.json.default_capabilities.options.ach).toMatchObject({ monthly_fee: "12.50", txn_fee_fixed: "0.25" });
    expect(res.json.settings).toMatchObject({
      onboarding_link_ttl_seconds: 3600,
      allow_skip_device_selection: true,
      device_selection_required: true,
    });

    const cleared = await api.call("PATCH", "/v1/account", {
      auth: isv.auth,
      body: { defaults: { redirect_url: null } },
    });
    expect(cleared.json.defaults.redirect_url).toBeUndefined();

    const theirs = await api.call("GET", "/v1/account", { auth: other.auth });
    expect(theirs.json.defaults.primary_color).toBe("#1d4ed8");
    expect(theirs.json.settings.onboarding_link_ttl_seconds).toBe(86400);
  });

  test("a custom domain is pending until its TXT record is found; asking is not owning; the first to verify keeps it", async () => {
    const first = await api.newIsv();
    const second = await api.newIsv();
    const domain = `onboard-${Date.now()}.acme.example`;
    const asked = await api.call("PATCH", "/v1/account", {
      auth: first.auth,
      body: { defaults: { custom_domain: domain } },
    });
    expect(asked.status).toBe(200);
    const pending = asked.json.custom_domain_verification;
    expect(pending).toEqual({
      domain,
      status: "pending",
      record: {
        type: "TXT",
        name: `_onboarding-verification.${domain}`,
        value: expect.stringMatching(/^onboarding-verification=[0-9A-Za-z]{32}$/),
      },
      verified_at: null,
    });
    // A squatter may ask for the same domain: it is nobody's until verified.
    const squatter = await api.call("PATCH", "/v1/account", {
      auth: second.auth,
      body: { defaults: { custom_domain: domain } },
    });
    expect(squatter.status).toBe(200);
    expect(squatter.json.custom_domain_verification.record.value).not.toBe(pending.record.value);
    // No such record in DNS (the .example names do not exist): 409, and nothing changes.
    const notFound = await api.call("POST", "/v1/account/custom_domain/verify", { auth: first.auth });
    expectErrorShape(notFound, 409, "conflict_error", "custom_domain_unverified");
    expect(notFound.json.error.message).toContain(pending.record.name);
    expect((await api.call("GET", "/v1/account", { auth: first.auth })).json.custom_domain_verification.status).toBe(
      "pending",
    );
    // Verified (the sandbox helper skips the lookup): the domain is the first account's.
    const verified = await api.call("POST", "/v1/test_helpers/account/custom_domain/verify", { auth: first.auth });
    expect(verified.json.custom_domain_verification).toMatchObject({ status: "verified", record: pending.record });
    expect(Date.parse(verified.json.custom_domain_verification.verified_at)).toBeGreaterThan(Date.now() - 60_000);
    const late = await api.call("POST", "/v1/test_helpers/account/custom_domain/verify", { auth: second.auth });
    expectErrorShape(late, 409, "conflict_error", "custom_domain_taken");
    expect((await api.call("GET", "/v1/account", { auth: second.auth })).json.custom_domain_verification.status).toBe(
      "pending",
    );
    const taken = await api.call("PATCH", "/v1/account", {
      auth: other.auth,
      body: { defaults: { custom_domain: domain } },
    });
    expectErrorShape(taken, 409, "conflict_error", "custom_domain_taken");
    expect(taken.json.error.param).toBe("defaults.custom_domain");
    // Changing the domain starts over: a new token, pending again.
    const moved = await api.call("PATCH", "/v1/account", {
      auth: first.auth,
      body: { defaults: { custom_domain: `2-${domain}` } },
    });
    expect(moved.json.custom_domain_verification).toMatchObject({
      domain: `2-${domain}`,
      status: "pending",
      verified_at: null,
    });
    expect(moved.json.custom_domain_verification.record.value).not.toBe(pending.record.value);
    const none = await api.call("PATCH", "/v1/account", {
      auth: first.auth,
      body: { defaults: { custom_domain: null } },
    });
    expect(none.json.custom_domain_verification).toBeNull();
    expectErrorShape(
      await api.call("POST", "/v1/account/custom_domain/verify", { auth: first.auth }),
      409,
      "conflict_error",
      "invalid_state",
    );
  });

  test("verification reads the TXT record and accepts only the account's own value", async () => {
    const fresh = await api.newIsv();
    const domain = `txt-${Date.now()}.acme.example`;
    const record = (
      await api.call("PATCH", "/v1/account", { auth: fresh.auth, body: { defaults: { custom_domain: domain } } })
    ).json.custom_domain_verification.record;
    const asked: string[] = [];
    const resolver = (answers: string[][]) => async (name: string) => (asked.push(name), answers);
    await expect(
      verifyCustomDomain(api.db, fresh.account_id, {
        resolver: resolver([["v=spf1 -all"], ["onboarding-verification=wrong"]]),
      }),
    ).rejects.toMatchObject({
      code: "custom_domain_unverified",
    });
    // A long value may come split in chunks: they are joined.
    const [head, tail] = [record.value.slice(0, 20), record.value.slice(20)];
    const verified = await verifyCustomDomain(api.db, fresh.account_id, {
      resolver: resolver([["v=spf1 -all"], [head, tail]]),
    });
    expect(verified.customDomainVerifiedAt).toBeInstanceOf(Date);
    expect(asked).toEqual([record.name, record.name]);
  });
});

describe("HTTP conventions", () => {
  test("a body over 1 MB answers 413", async () => {
    const res = await api.call("PATCH", "/v1/account", {
      auth: isv.auth,
      raw: JSON.stringify({ defaults: { display_name: "x".repeat(1_100_000) } }),
      headers: { "content-type": "application/json" },
    });
    expectErrorShape(res, 413, "invalid_request_error", "body_too_large");
  });

  test("the limit is exact: a body of 1 MiB is read, one byte more is 413 (declared and streamed alike)", async () => {
    const json = JSON.stringify({ defaults: { display_name: "Edge POS" } });
    // JSON may end in white space: the same body, padded to the byte.
    const ofSize = (bytes: number) => json + " ".repeat(bytes - json.length);
    const declared = (text: string) =>
      api.call("PATCH", "/v1/account", { auth: isv.auth, raw: text, headers: { "content-type": "application/json" } });
    const streamed = (text: string) =>
      fetch(`${api.baseUrl}/v1/account`, {
        method: "PATCH",
        headers: { authorization: isv.auth, "content-type": "application/json" },
        body: new ReadableStream({
          start(controller) {
            const bytes = new TextEncoder().encode(text);
            for (let i = 0; i < bytes.length; i += 65_536) controller.enqueue(bytes.slice(i, i + 65_536));
            controller.close();
          },
        }),
        duplex: "half",
      } as RequestInit);
    expect((await declared(ofSize(MAX_BODY_BYTES))).status).toBe(200);
    expectErrorShape(await declared(ofSize(MAX_BODY_BYTES + 1)), 413, "invalid_request_error", "body_too_large");
    expect((await streamed(ofSize(MAX_BODY_BYTES))).status).toBe(200);
    const over = await streamed(ofSize(MAX_BODY_BYTES + 1));
    expect([over.status, (await over.json()).error.code]).toEqual([413, "body_too_large"]);
  });

  test("a body without a declared length (chunked) is counted as it streams: over 1 MB 413, within it read like any other", async () => {
    const chunked = (text: string) =>
      fetch(`${api.baseUrl}/v1/account`, {
        method: "PATCH",
        headers: { authorization: isv.auth, "content-type": "application/json" },
        body: new ReadableStream({
          start(controller) {
            const bytes = new TextEncoder().encode(text);
            for (let i = 0; i < bytes.length; i += 65_536) controller.enqueue(bytes.slice(i, i + 65_536));
            controller.close();
          },
        }),
        duplex: "half",
      } as RequestInit);
    const big = await chunked(JSON.stringify({ defaults: { display_name: "x".repeat(1_100_000) } }));
    expect(big.status).toBe(413);
    expect((await big.json()).error.code).toBe("body_too_large");
    const small = await chunked(JSON.stringify({ defaults: { display_name: "Chunked POS" } }));
    expect(small.status).toBe(200);
    expect((await small.json()).defaults.display_name).toBe("Chunked POS");
    const broken = await chunked("{not json");
    expect(broken.status).toBe(400);
    expect((await broken.json()).error.code).toBe("invalid_json");
  });

  test("a body that is not JSON answers 415", async () => {
    const res = await api.call("PATCH", "/v1/account", {
      auth: isv.auth,
      raw: "display_name=x",
      headers: { "content-type": "application/x-www-form-urlencoded" },
    });
    expectErrorShape(res, 415, "invalid_request_error", "unsupported_media_type");
  });

  test("malformed JSON answers 400", async () => {
    const res = await api.call("PATCH", "/v1/account", {
      auth: isv.auth,
      raw: '{"defaults": {',
      headers: { "content-type": "application/json" },
    });
    expectErrorShape(res, 400, "invalid_request_error", "invalid_json");
  });

  test("an unknown route answers 404 in JSON", async () => {
    expectErrorShape(
      await api.call("GET", "/v1/nothing-here", { auth: isv.auth }),
      404,
      "not_found_error",
      "route_not_found",
    );
  });

  test("a wrong method answers 405 with Allow", async () => {
    const res = await api.call("DELETE", "/v1/account", { auth: isv.auth });
    expectErrorShape(res, 405, "invalid_request_error", "method_not_allowed");
    expect(res.headers.get("allow")).toBe("GET, PATCH");
  });

  test("GET /v1/openapi.json is an OpenAPI 3.1 document with the security schemes", async () => {
    const res = await api.call("GET", "/v1/openapi.json");
    expect(res.status).toBe(200);
    expect(res.json.openapi).toBe("3.1.0");
    expect(Object.keys(res.json.components.securitySchemes)).toEqual(
      expect.arrayContaining(["account-password-sign-in", "api-key-secret"]),
    );
    expect(Object.keys(res.json.paths["/v1/account"]).sort()).toEqual(["get", "patch"]);
  });
});

// Last in this file: it leaves this client address limited for five minutes.
describe("sign-in abuse", () => {
  test("a password hashed with older parameters is upgraded at sign-in", async () => {
    const fresh = await api.newIsv();
    const [user] = await api.db.select().from(users).where(eq(users.email, fresh.user_email));
    const salt = randomBytes(16);
    // Half the work of today's parameters (the standard's in production, tests/production.test.ts;
    // PASSWORD_HASH_COST=test's here).
    const { N, r, p } = passwordHashParams;
    const weak = scryptSync(fresh.password, salt, 32, { N: N / 2, r, p });
    await api.db
      .update(users)
      .set({ passwordHash: `scrypt$${N / 2}$${r}$${p}$${salt.toString("base64")}$${weak.toString("base64")}` })
      .where(eq(users.id, user!.id));
    expect((await signInWithCode(api, { email: fresh.user_email, password: fresh.password })).status).toBe(200);
    const [after] = await api.db.select().from(users).where(eq(users.id, user!.id));
    expect(after!.passwordHash.split("$").slice(0, 4)).toEqual(["scrypt", String(N), String(r), String(p)]);
    expect((await signInWithCode(api, { email: fresh.user_email, password: fresh.password })).status).toBe(200);
  });

  test("one address spraying many e-mails is stopped after 50 attempts in 5 minutes", async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 51; i++) {
      statuses.push(
        (
          await api.call("POST", "/v1/auth/token", {
            body: { email: `spray-${i}@example.test`, password: "guess-password" },
          })
        ).status,
      );
    }
    // Earlier tests of this file signed in from this address too: what is left of the 50 is allowed, then 429 only.
    const first = statuses.indexOf(429);
    expect(first).toBeGreaterThan(25);
    expect(statuses.slice(0, first).every((s) => s === 401)).toBe(true);
    expect(statuses.slice(first).every((s) => s === 429)).toBe(true);
  }, 60_000);
});
