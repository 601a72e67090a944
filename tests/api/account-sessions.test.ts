import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";

import { accountSessions, auditLogs } from "@/lib/db/schema";
import { exchangeClientSecret, frameSession, opens } from "@/lib/domain/embed/account-sessions";

import { startTestApi, type TestApi } from "../helpers/api";

// Account sessions (docs/reference.md section 15, embedded components): made by the ISV for one of
// its merchants and some components; the client secret opens that merchant and those components,
// once, within the hour.

let api: TestApi;
let isv: Awaited<ReturnType<TestApi["newIsv"]>>;
let other: Awaited<ReturnType<TestApi["newIsv"]>>;
let merchantA: string;
let merchantB: string;

const newMerchant = async (auth: string, name: string) =>
  (
    await api.call("POST", "/v1/merchants", {
      auth,
      body: { phone: "+14155550123", merchant: { legal_business_name: name } },
    })
  ).json.id as string;

beforeAll(async () => {
  api = await startTestApi();
  isv = await api.newIsv("Embedding ISV");
  other = await api.newIsv("Other ISV");
  merchantA = await newMerchant(isv.auth, "Alpha LLC");
  merchantB = await newMerchant(isv.auth, "Beta LLC");
}, 60_000);
afterAll(() => api.close());

const create = (body: unknown, auth = isv.auth) => api.call("POST", "/v1/account_sessions", { auth, body });

describe("account sessions", () => {
  test("made for one merchant and its components: features default on, one hour, the secret kept only as a digest", async () => {
    const before = Date.now();
    const res = await create({
      merchant_id: merchantA,
      components: { payments: { enabled: true, features: { refunds: false } }, payouts: { enabled: false } },
    });
    expect(res.status).toBe(200);
    expect(res.json).toEqual({
      object: "account_session",
      id: expect.stringMatching(/^as_/),
      merchant_id: merchantA,
      client_secret: expect.stringMatching(new RegExp(`^${res.json.id}_secret_[A-Za-z0-9]{32}$`)),
      components: { payments: { enabled: true, features: { refunds: false, dispute_management: true } } },
      expires_at: res.json.created_at + 3_600_000,
      created_at: expect.any(Number),
    });
    expect(res.json.created_at).toBeGreaterThanOrEqual(before - 1_000);
    const [row] = await api.db.select().from(accountSessions).where(eq(accountSessions.id, res.json.id));
    expect(JSON.stringify(row)).not.toContain(res.json.client_secret.split("_secret_")[1]);
    // Audited under the ISV's key, with the components by name.
    const [entry] = await api.db
      .select()
      .from(auditLogs)
      .where(and(eq(auditLogs.resourceId, merchantA), eq(auditLogs.action, "account_session.created")));
    expect(entry).toMatchObject({ action: "account_session.created", actorType: "api_key", fields: ["payments"] });
  });

  test("refused: another ISV's merchant (404), no component enabled, an unknown component or feature (400); nothing made", async () => {
    const count = async () => (await api.db.select().from(accountSessions)).length;
    const start = await count();
    const foreign = await create({ merchant_id: merchantA, components: { payments: { enabled: true } } }, other.auth);
    expect(foreign.status).toBe(404);
    expect(foreign.json.error.code).toBe("resource_missing");
    const none = await create({ merchant_id: merchantA, components: { payments: { enabled: false } } });
    expect(none.status).toBe(400);
    expect(none.json.error.message).toContain("enable at least one component");
    const unknown = await create({ merchant_id: merchantA, components: { wallet: { enabled: true } } });
    expect(unknown.status).toBe(400);
    expect(unknown.json.error.errors[0]).toMatchObject({ param: "components.wallet", code: "parameter_unknown" });
    const feature = await create({
      merchant_id: merchantA,
      components: { payments: { enabled: true, features: { capture: true } } },
    });
    expect(feature.status).toBe(400);
    expect(await count()).toBe(start);
  });

  test("the secret is exchanged once for the frame's session, which opens its merchant and its components only", async () => {
    const made = (await create({ merchant_id: merchantA, components: { payments: { enabled: true } } })).json;
    const [first, second] = await Promise.all([
      exchangeClientSecret(api.db, made.client_secret),
      exchangeClientSecret(api.db, made.client_secret),
    ]);
    // Two exchanges at once: one wins.
    expect([first, second].filter((x) => x !== null)).toHaveLength(1);
    const won = (first ?? second)!;
    expect(await exchangeClientSecret(api.db, made.client_secret)).toBeNull();
    const session = await frameSession(won.token);
    expect(session).toEqual({
      accountSessionId: made.id,
      isvAccountId: isv.account_id,
      merchantId: merchantA,
      components: { payments: { enabled: true, features: { refunds: true, dispute_management: true } } },
    });
    // A payments-only secret never opens onboarding; merchant A's never names merchant B.
    expect(opens(session, "payments")).toBe(true);
    expect(opens(session, "onboarding")).toBe(false);
    expect(session!.merchantId).not.toBe(merchantB);
    // A token of another audience (the home's, a user's) is not a frame session; nor is garbage.
    expect(await frameSession(`${won.token}x`)).toBeNull();
    expect(await frameSession(undefined)).toBeNull();
  });

  test("an expired secret opens nothing; an unknown one neither", async () => {
    const made = (await create({ merchant_id: merchantB, components: { onboarding: { enabled: true } } })).json;
    const later = new Date(made.expires_at);
    expect(await exchangeClientSecret(api.db, made.client_secret, later)).toBeNull();
    expect(await exchangeClientSecret(api.db, `${made.id}_secret_${"x".repeat(32)}`)).toBeNull();
    // Just before its hour ends it still opens, for what is left of the hour.
    const exchanged = await exchangeClientSecret(api.db, made.client_secret, new Date(made.expires_at - 1_000));
    expect(exchanged?.session.components).toEqual({
      onboarding: { enabled: true, features: { refunds: true, dispute_management: true } },
    });
  });

  test("the ISV lists the origins that may embed: origins only, https (http on localhost), unique", async () => {
    const patch = (origins: unknown) =>
      api.call("PATCH", "/v1/account", { auth: isv.auth, body: { settings: { embed_allowed_origins: origins } } });
    expect((await api.call("GET", "/v1/account", { auth: isv.auth })).json.settings.embed_allowed_origins).toEqual([]);
    const ok = await patch(["https://app.example.com", "http://localhost:5173", "https://pos.example.com:8443"]);
    expect(ok.status).toBe(200);
    expect(ok.json.settings.embed_allowed_origins).toEqual([
      "https://app.example.com",
      "http://localhost:5173",
      "https://pos.example.com:8443",
    ]);
    for (const bad of [
      ["https://app.example.com/"],
      ["https://app.example.com/embed"],
      ["http://app.example.com"],
      ["app.example.com"],
      ["https://a.example.com", "https://a.example.com"],
    ]) {
      const res = await patch(bad);
      expect(res.status, JSON.stringify(bad)).toBe(400);
    }
    // Refused changes changed nothing.
    expect((await api.call("GET", "/v1/account", { auth: isv.auth })).json.settings.embed_allowed_origins).toHaveLength(
      3,
    );
  });
});
