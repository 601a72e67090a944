import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";

import { accountSessions, auditLogs } from "@/lib/db/schema";
import { exchangeClientSecret, frameSession, frameState, opens } from "@/lib/domain/embed/account-sessions";

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

  test("the frame exchanges the secret once, from an allowed origin, for its component only: a partitioned cookie naming the merchant, the components, the origin and the checked appearance", async () => {
    const host = "https://app.isv.example";
    expect(
      (
        await api.call("PATCH", "/v1/account", {
          auth: isv.auth,
          body: { settings: { embed_allowed_origins: [host, "http://localhost:4242"] } },
        })
      ).status,
    ).toBe(200);
    const made = (await create({ merchant_id: merchantA, components: { payments: { enabled: true } } })).json;
    const exchange = (body: Record<string, unknown>, headers: Record<string, string> = {}) =>
      api.call("POST", "/embed/v1/sessions", {
        headers,
        body: { client_secret: made.client_secret, component: "payments", parent_origin: host, ...body },
      });

    // The frame's first page: framed by the ISV's origins only; an unknown session, by nobody.
    const frame = await api.call("GET", `/embed/v1/frame?component=payments&session=${made.id}`);
    expect(frame.status).toBe(200);
    expect(frame.headers.get("content-security-policy")).toContain(
      "frame-ancestors https://app.isv.example http://localhost:4242",
    );
    expect(frame.text).not.toContain(made.client_secret);
    const unknown = await api.call("GET", "/embed/v1/frame?component=payments&session=as_unknown");
    expect(unknown.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");

    // Refused, and the secret not spent: another origin, another component, a cross-site POST.
    const elsewhere = await exchange({ parent_origin: "https://evil.example" });
    expect([elsewhere.status, elsewhere.json.error.code]).toEqual([403, "origin_not_allowed"]);
    const onboarding = await exchange({ component: "onboarding" });
    expect([onboarding.status, onboarding.json.error.code]).toEqual([403, "component_not_enabled"]);
    const crossSite = await exchange({}, { origin: "https://evil.example" });
    expect([crossSite.status, crossSite.json.error.code]).toEqual([403, "cross_site_request"]);
    expect(elsewhere.headers.get("set-cookie")).toBeNull();
    const [row] = await api.db.select().from(accountSessions).where(eq(accountSessions.id, made.id));
    expect(row!.exchangedAt).toBeNull();

    // Two exchanges at once: one wins, the other is told the secret is spent.
    const appearance = {
      color_primary: "rgb(124, 45, 18)",
      font_family: "x; background:url(//evil)",
      border_radius: "14px",
    };
    const [first, second] = await Promise.all([exchange({ appearance }), exchange({ appearance })]);
    expect([first.status, second.status].sort()).toEqual([200, 401]);
    const won = first.status === 200 ? first : second;
    const lost = first.status === 200 ? second : first;
    expect(lost.json.error.code).toBe("invalid_secret");
    expect(won.json).toEqual({ url: "/home/payments" });
    const cookie = won.headers.get("set-cookie")!;
    expect(cookie).toMatch(
      /^onb_embed_payments=[^;]+; Max-Age=43200; Path=\/; HttpOnly; Secure; SameSite=None; Partitioned$/,
    );
    const token = decodeURIComponent(/^onb_embed_payments=([^;]+)/.exec(cookie)![1]!);
    const session = await frameSession(token);
    expect(session).toEqual({
      accountSessionId: made.id,
      isvAccountId: isv.account_id,
      merchantId: merchantA,
      components: { payments: { enabled: true, features: { refunds: true, dispute_management: true } } },
      origin: host,
      // The colour as #rrggbb, the radius kept, the font with a style injection in it dropped.
      appearance: { color_primary: "#7c2d12", border_radius: "14px" },
    });
    // A payments-only secret never opens onboarding; merchant A's never names merchant B.
    expect(opens(session, "payments")).toBe(true);
    expect(opens(session, "onboarding")).toBe(false);
    expect(session!.merchantId).not.toBe(merchantB);
    // The frame checks the browser sent its cookie back.
    const check = (path: string, cookie?: string) =>
      api.call("GET", path, cookie ? { headers: { cookie } } : {}).then((r) => r.status);
    expect(await check("/embed/v1/session?component=payments", `onb_embed_payments=${token}`)).toBe(200);
    expect(await check("/embed/v1/session?component=payments")).toBe(401);
    // One cookie per component: another component's frame on the same page is not this one.
    expect(await check("/embed/v1/session?component=onboarding", `onb_embed_payments=${token}`)).toBe(401);
    // Garbage and other audiences are no frame session.
    expect(await frameSession(`${token}x`)).toBeNull();
    expect(await frameSession(undefined)).toBeNull();
    // The onboarding component's way into the wizard refuses a payments-only frame.
    const wizard = await api.call("GET", "/embed/v1/onboarding", {
      headers: { cookie: `onb_embed_payments=${token}; onb_embed_onboarding=${token}` },
    });
    expect([wizard.status, wizard.headers.get("location")]).toEqual([303, "/home/unavailable?reason=component"]);
    expect(wizard.headers.get("set-cookie")).toBeNull();
  });

  test("eight exchanges of one secret at once open exactly one session (the conditional update, not the read before it)", async () => {
    const host = "https://race.isv.example";
    const allowed = (await api.call("GET", "/v1/account", { auth: isv.auth })).json.settings.embed_allowed_origins;
    await api.call("PATCH", "/v1/account", {
      auth: isv.auth,
      body: { settings: { embed_allowed_origins: [...allowed, host] } },
    });
    for (let round = 0; round < 3; round++) {
      const made = (await create({ merchant_id: merchantA, components: { payments: { enabled: true } } })).json;
      // Fired together, every read of the unspent secret goes out before any update lands.
      const results = await Promise.all(
        Array.from({ length: 8 }, () =>
          exchangeClientSecret(api.db, { clientSecret: made.client_secret, component: "payments", origin: host }),
        ),
      );
      expect(results.filter((r) => r.ok)).toHaveLength(1);
      expect(results.filter((r) => !r.ok).map((r) => (r.ok ? null : r.reason))).toEqual(
        Array(7).fill("invalid_secret"),
      );
      const [row] = await api.db.select().from(accountSessions).where(eq(accountSessions.id, made.id));
      expect(row!.exchangedAt).not.toBeNull();
    }
  });

  test("an expired secret opens nothing; an unknown one neither; the onboarding frame opens the wizard on the merchant's link", async () => {
    const made = (await create({ merchant_id: merchantB, components: { onboarding: { enabled: true } } })).json;
    const input = {
      clientSecret: made.client_secret,
      component: "onboarding" as const,
      origin: "http://localhost:4242",
    };
    const later = new Date(made.expires_at);
    expect(await exchangeClientSecret(api.db, input, later)).toEqual({ ok: false, reason: "invalid_secret" });
    expect(
      await exchangeClientSecret(api.db, { ...input, clientSecret: `${made.id}_secret_${"x".repeat(32)}` }),
    ).toEqual({ ok: false, reason: "invalid_secret" });
    // Just before its hour ends it still opens, for what is left of the hour.
    const exchanged = await exchangeClientSecret(api.db, input, new Date(made.expires_at - 5_000));
    expect(exchanged.ok && exchanged.session.components).toEqual({
      onboarding: { enabled: true, features: { refunds: true, dispute_management: true } },
    });
    const token = exchanged.ok ? exchanged.token : "";
    // The wizard, opened on a new link (the merchant had none): its session cookie is partitioned too.
    const wizard = await api.call("GET", "/embed/v1/onboarding", {
      headers: { cookie: `onb_embed_onboarding=${token}` },
    });
    expect([wizard.status, wizard.headers.get("location")]).toEqual([303, "/onboarding"]);
    expect(wizard.headers.get("set-cookie")).toMatch(
      /^onboarding_session=[^;]+; Max-Age=1800; Path=\/; HttpOnly; Secure; SameSite=None; Partitioned$/,
    );
    const merchant = (await api.call("GET", `/v1/merchants/${merchantB}`, { auth: isv.auth })).json;
    expect(merchant.lead_onboarding_status).toBe("IN_PROGRESS");
    // Its frame session ends with the hour (five seconds later here): then the frame can still tell its
    // host page (which origin) that it ended, so that the loader asks for a new secret.
    expect(await frameState(token)).toMatchObject({ kind: "active" });
    await expect
      .poll(() => frameState(token), { timeout: 10_000, interval: 250 })
      .toEqual({ kind: "expired", origin: "http://localhost:4242" });
    expect(await frameState(`${token}x`)).toEqual({ kind: "none" });
  });

  test("the ISV lists the origins that may embed: origins only, https (http on localhost), unique", async () => {
    const patch = (origins: unknown) =>
      api.call("PATCH", "/v1/account", { auth: other.auth, body: { settings: { embed_allowed_origins: origins } } });
    expect((await api.call("GET", "/v1/account", { auth: other.auth })).json.settings.embed_allowed_origins).toEqual(
      [],
    );
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
      // Wildcards and CSP separators the URL parser lets through in a host: never written into frame-ancestors.
      ["https://*"],
      ["https://*.example.com"],
      ["https://a.example.com;script-src"],
      ["https://a.example.com,https"],
      ["https://a'.example.com"],
    ]) {
      const res = await patch(bad);
      expect(res.status, JSON.stringify(bad)).toBe(400);
    }
    // Refused changes changed nothing.
    expect(
      (await api.call("GET", "/v1/account", { auth: other.auth })).json.settings.embed_allowed_origins,
    ).toHaveLength(3);
  });
});
