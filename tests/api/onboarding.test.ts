import http from "node:http";

import { asc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";

import { signToken } from "@/lib/auth/jwt";
import { forgetCustomDomains } from "@/lib/branding/hosts";
import { accounts, events, jobs, merchants, onboardingLinks } from "@/lib/db/schema";
import { env } from "@/lib/env";
import { onboardingSessionResponseSchema } from "@/lib/schemas/merchant-response";

import { startTestApi, type TestApi } from "../helpers/api";
import { application } from "../helpers/fixtures";
import { openLink } from "../helpers/onboarding";
import { pdfText, pdfToPngs } from "../helpers/pdf";
import { until } from "../helpers/until";

let api: TestApi;
let isv: Awaited<ReturnType<TestApi["newIsv"]>>;
let other: Awaited<ReturnType<TestApi["newIsv"]>>;

beforeAll(async () => {
  api = await startTestApi();
  isv = await api.newIsv("Acme POS");
  other = await api.newIsv("Other ISV");
});
afterAll(async () => {
  const everything = api.seenBodies.join("\n");
  for (const secret of ["401234567", "402345678", "123456789", "000123456789"])
    expect(everything).not.toContain(secret);
  // Nor in any stored event or in the stored application.
  const stored =
    JSON.stringify(await api.db.select().from(events)) +
    JSON.stringify(await api.db.select({ a: merchants.application }).from(merchants));
  for (const secret of ["401234567", "402345678", "000123456789"]) expect(stored).not.toContain(secret);
  await api.close();
});

async function newMerchant(body: Record<string, unknown> = {}) {
  return (await api.call("POST", "/v1/merchants", { auth: isv.auth, body: { phone: "+14155550123", ...body } })).json;
}
const link = (body: Record<string, unknown>, auth = isv.auth) =>
  api.call("POST", "/v1/onboarding_links", { auth, body: { type: "account_onboarding", ...body } });

/** Opens a link like a browser: returns the session cookie it sets. */
async function open(url: string) {
  const path = new URL(url).pathname;
  const res = await fetch(api.baseUrl + path, { redirect: "manual" });
  const cookie = res.headers.get("set-cookie");
  return { res, cookie, token: cookie?.match(/onboarding_session=([^;]+)/)?.[1] };
}

describe("POST /v1/onboarding_links", () => {
  test("creates a link with every field of the contract", async () => {
    const m = await newMerchant();
    const res = await link({
      merchant_id: m.id,
      return_url: "https://acme.example/done",
      refresh_url: "https://acme.example/refresh",
      state: "s-1",
    });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({
      object: "onboarding_link",
      merchant_id: m.id,
      type: "account_onboarding",
      return_url: "https://acme.example/done",
      refresh_url: "https://acme.example/refresh",
      state: "s-1",
    });
    expect(res.json.id).toMatch(/^lnk_/);
    expect(res.json.url).toMatch(
      new RegExp(
        `^${api.baseUrl.replace("127.0.0.1", "(127.0.0.1|localhost)").replace(/:\d+$/, "")}.*/onboard/[0-9A-Za-z]{43}$`,
      ),
    );
    const ttl = Date.parse(res.json.expires_at) - Date.parse(res.json.created_at);
    expect(ttl).toBe(86_400_000);
    // Only the digest of the token is stored.
    const token = res.json.url.split("/").pop();
    const [row] = await api.db.select().from(onboardingLinks).where(eq(onboardingLinks.id, res.json.id));
    expect(JSON.stringify(row)).not.toContain(token);
  });

  test("redirect_url is an alias; both given and different is a 400", async () => {
    const m = await newMerchant();
    const alias = await link({ merchant_id: m.id, redirect_url: "https://acme.example/r" });
    expect(alias.json.return_url).toBe("https://acme.example/r");
    const both = await link({ merchant_id: m.id, redirect_url: "https://a.example", return_url: "https://b.example" });
    expect(both.status).toBe(400);
    expect(both.json.error.param).toBe("redirect_url");
  });

  test.each([
    [{ type: "payments" }, "type"],
    [{ merchant_id: undefined }, "merchant_id"],
    [{ return_url: "javascript:alert(1)" }, "return_url"],
    [{ state: "x".repeat(513) }, "state"],
    [{ allow_skip_device_selection: "yes" }, "allow_skip_device_selection"],
  ])("rejects %o naming %s", async (override, param) => {
    const m = await newMerchant();
    const res = await link({ merchant_id: m.id, ...override });
    expect(res.status).toBe(400);
    expect(res.json.error.param).toBe(param);
  });

  test("uses the ISV's link validity", async () => {
    const fresh = await api.newIsv();
    await api.call("PATCH", "/v1/account", {
      auth: fresh.auth,
      body: { settings: { onboarding_link_ttl_seconds: 3600 } },
    });
    const m = (await api.call("POST", "/v1/merchants", { auth: fresh.auth, body: { phone: "+14155550123" } })).json;
    const res = await link({ merchant_id: m.id }, fresh.auth);
    expect(Date.parse(res.json.expires_at) - Date.parse(res.json.created_at)).toBe(3_600_000);
  });

  test("the url is on the ISV's custom domain once it is verified, on this service before", async () => {
    const fresh = await api.newIsv();
    await api.call("PATCH", "/v1/account", {
      auth: fresh.auth,
      body: { defaults: { custom_domain: `onboard-${Date.now()}.acme.example` } },
    });
    const m = (await api.call("POST", "/v1/merchants", { auth: fresh.auth, body: { phone: "+14155550123" } })).json;
    expect((await link({ merchant_id: m.id }, fresh.auth)).json.url.startsWith(`${env.PUBLIC_BASE_URL}/onboard/`)).toBe(
      true,
    );
    await api.call("POST", "/v1/test_helpers/account/custom_domain/verify", { auth: fresh.auth });
    const res = await link({ merchant_id: m.id }, fresh.auth);
    expect(res.json.url).toMatch(/^https:\/\/onboard-\d+\.acme\.example\/onboard\//);
  });
});

describe("opening a link", () => {
  test("sets an httpOnly SameSite=Lax session cookie, redirects into the wizard, and moves NOT_STARTED to IN_PROGRESS once", async () => {
    const m = await newMerchant();
    const l = await link({ merchant_id: m.id });
    const { res, cookie } = await open(l.json.url);
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe("/onboarding");
    expect(cookie).toMatch(/onboarding_session=/);
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Lax/i);
    const after = await api.call("GET", `/v1/merchants/${m.id}`, { auth: isv.auth });
    expect(after.json.lead_onboarding_status).toBe("IN_PROGRESS");
    await open(l.json.url); // may be opened many times while valid
    const updates = await api.db.select().from(events).where(eq(events.objectId, m.id)).orderBy(asc(events.seq));
    expect(updates.map((e) => e.type)).toEqual(["merchant.created", "merchant.updated"]);
  });

  test("a superseded link answers 410 with a branded page and opens no session", async () => {
    const m = await newMerchant();
    const first = await link({ merchant_id: m.id, refresh_url: "https://acme.example/refresh" });
    await link({ merchant_id: m.id });
    const { res, cookie } = await open(first.json.url);
    expect(res.status).toBe(410);
    expect(cookie).toBeNull();
    const html = await res.text();
    expect(html).toContain("Acme POS");
    expect(html).toContain("https://acme.example/refresh");
    expect(html).toContain("no longer valid");
    const still = await api.call("GET", `/v1/merchants/${m.id}`, { auth: isv.auth });
    expect(still.json.lead_onboarding_status).toBe("NOT_STARTED");
  });

  test("an expired link answers 410, in Spanish when asked", async () => {
    const m = await newMerchant();
    const l = await link({ merchant_id: m.id });
    await api.db
      .update(onboardingLinks)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(onboardingLinks.id, l.json.id));
    const res = await fetch(api.baseUrl + new URL(l.json.url).pathname, {
      redirect: "manual",
      headers: { "accept-language": "es-MX,es;q=0.9" },
    });
    expect(res.status).toBe(410);
    const html = await res.text();
    expect(html).toContain('lang="es"');
    expect(html).toContain("ha caducado");
  });

  test("an expired link with a refresh_url sends the merchant there by itself (as Stripe does), and opens no session", async () => {
    const m = await newMerchant();
    const l = await link({ merchant_id: m.id, refresh_url: "https://acme.example/refresh?m=1" });
    await api.db
      .update(onboardingLinks)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(onboardingLinks.id, l.json.id));
    const { res, cookie } = await open(l.json.url);
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe("https://acme.example/refresh?m=1");
    expect(cookie).toBeNull();
  });

  test("an unknown token answers 404; on an ISV's verified domain, on that ISV's brand", async () => {
    const res = await fetch(`${api.baseUrl}/onboard/${"a".repeat(43)}`, { redirect: "manual" });
    expect(res.status).toBe(404);
    const domain = `onb-${Date.now()}.brand.example`;
    await api.db
      .update(accounts)
      .set({ customDomain: domain, customDomainVerifiedAt: new Date() })
      .where(eq(accounts.id, isv.account_id));
    forgetCustomDomains();
    // node:http, not fetch: fetch sends its own Host header whatever it is given.
    const url = new URL(api.baseUrl);
    const branded = await new Promise<{ status: number; text: string }>((resolve, reject) =>
      http
        .get(
          { host: url.hostname, port: url.port, path: `/onboard/${"b".repeat(43)}`, headers: { host: domain } },
          (res) => {
            let text = "";
            res.on("data", (d) => (text += d));
            res.on("end", () => resolve({ status: res.statusCode!, text }));
          },
        )
        .on("error", reject),
    );
    expect(branded.status).toBe(404);
    expect(branded.text).toContain(isv.name);
    await api.db
      .update(accounts)
      .set({ customDomain: null, customDomainVerifiedAt: null })
      .where(eq(accounts.id, isv.account_id));
    forgetCustomDomains();
  });
});

describe("onboarding session API", () => {
  async function session(body: Record<string, unknown> = {}, linkBody: Record<string, unknown> = {}) {
    const m = await newMerchant(body);
    const l = await link({
      merchant_id: m.id,
      return_url: "https://acme.example/done?x=1",
      state: "st-9",
      ...linkBody,
    });
    const { token } = await open(l.json.url);
    return { merchant: m, link: l.json, token: token!, auth: `Bearer ${token}` };
  }

  test("GET /v1/onboarding/session answers the masked application, branding, steps and device options", async () => {
    const s = await session({ merchant: application() });
    const res = await api.call("GET", "/v1/onboarding/session", { auth: s.auth });
    expect(res.status).toBe(200);
    expect(onboardingSessionResponseSchema.safeParse(res.json).error).toBeUndefined();
    expect(res.json).toMatchObject({
      object: "onboarding_session",
      merchant_id: s.merchant.id,
      lead_onboarding_status: "IN_PROGRESS",
      device_selection_required: true,
      allow_skip_device_selection: false,
    });
    expect(res.json.merchant.tin).toBe("*****6789");
    expect(res.json.branding.display_name).toBe("Acme POS");
    expect(res.json.device_options.map((d: any) => d.id)).toContain("pax-a920");
    expect(res.json.steps.find((x: any) => x.id === "business").complete).toBe(true);
    expect(res.json.steps.find((x: any) => x.id === "device").complete).toBe(false);
    expect(res.json.requirements.currently_due).toEqual(["device"]);
  });

  test("the session works from the cookie too, and renews it", async () => {
    const s = await session();
    const res = await fetch(`${api.baseUrl}/v1/onboarding/session`, {
      headers: { cookie: `onboarding_session=${s.token}` },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get("set-cookie")).toMatch(/onboarding_session=/);
  });

  test("a cross-site PATCH with the cookie is refused", async () => {
    const s = await session();
    const res = await fetch(`${api.baseUrl}/v1/onboarding/session`, {
      method: "PATCH",
      headers: {
        cookie: `onboarding_session=${s.token}`,
        "content-type": "application/json",
        origin: "https://evil.example",
        "sec-fetch-site": "cross-site",
      },
      body: JSON.stringify({ merchant: { legal_business_name: "Evil" } }),
    });
    expect(res.status).toBe(403);
  });

  test("ISV credentials cannot use the session API, and a session cannot use the ISV API", async () => {
    const s = await session();
    expect((await api.call("GET", "/v1/onboarding/session", { auth: isv.auth })).status).toBe(401);
    expect((await api.call("GET", `/v1/merchants/${s.merchant.id}`, { auth: s.auth })).status).toBe(401);
    expect((await api.call("GET", "/v1/onboarding/session")).status).toBe(401);
  });

  test("PATCH saves partially, lists every error at once, and saves nothing from an invalid request", async () => {
    const s = await session();
    const ok = await api.call("PATCH", "/v1/onboarding/session", {
      auth: s.auth,
      body: { merchant: { legal_business_name: "Noodles", owner_one: { first_name: "Mei", ssn: "401-23-4567" } } },
    });
    expect(ok.status).toBe(200);
    expect(ok.json.merchant.legal_business_name).toBe("Noodles");
    expect(ok.json.merchant.owner_one).toMatchObject({ first_name: "Mei", ssn: "*****4567", last_name: null });
    const bad = await api.call("PATCH", "/v1/onboarding/session", {
      auth: s.auth,
      body: {
        merchant: {
          legal_business_name: "Changed",
          bank_account: { routing_number: "12" },
          owner_one: { date_of_birth: "1980-13-01" },
        },
        device: { catalog_id: "nope" },
      },
    });
    expect(bad.status).toBe(400);
    expect(bad.json.error.errors.map((e: any) => e.param)).toEqual(
      expect.arrayContaining(["merchant.bank_account.routing_number", "merchant.owner_one.date_of_birth"]),
    );
    const device = await api.call("PATCH", "/v1/onboarding/session", {
      auth: s.auth,
      body: { merchant: { legal_business_name: "Changed" }, device: { catalog_id: "nope" } },
    });
    expect(device.json.error.param).toBe("device.catalog_id");
    const after = await api.call("GET", "/v1/onboarding/session", { auth: s.auth });
    expect(after.json.merchant.legal_business_name).toBe("Noodles");
  });

  test("PATCH refuses pricing fields: they are the ISV's", async () => {
    const s = await session();
    const res = await api.call("PATCH", "/v1/onboarding/session", {
      auth: s.auth,
      body: { merchant: { fees: { monthly: { minimum_processing_fee: 0 } } } },
    });
    expect(res.status).toBe(400);
    expect(res.json.error.param).toBe("merchant.fees");
  });

  test("device: a catalog choice; skipping only where allowed", async () => {
    const s = await session();
    const skip = await api.call("PATCH", "/v1/onboarding/session", {
      auth: s.auth,
      body: { device_selection: "skipped" },
    });
    expect(skip.status).toBe(400);
    expect(skip.json.error.param).toBe("device_selection");
    const chosen = await api.call("PATCH", "/v1/onboarding/session", {
      auth: s.auth,
      body: { device: { catalog_id: "pax-a80" } },
    });
    expect(chosen.json.device).toMatchObject({ catalog_id: "pax-a80", imei_status: "UNKNOWN", imei: null });
    expect(chosen.json.device_selection).toBe("selected");

    const skippable = await session({}, { allow_skip_device_selection: true });
    const skipped = await api.call("PATCH", "/v1/onboarding/session", {
      auth: skippable.auth,
      body: { device_selection: "skipped" },
    });
    expect(skipped.status).toBe(200);
    expect(skipped.json).toMatchObject({
      device_selection: "skipped",
      allow_skip_device_selection: true,
      device: null,
    });
    expect(skipped.json.steps.find((x: any) => x.id === "device").complete).toBe(true);
  });

  test("submit lists every missing field; a complete application becomes COMPLETED with the redirect", async () => {
    const s = await session();
    const incomplete = await api.call("POST", "/v1/onboarding/session/submit", { auth: s.auth });
    expect(incomplete.status).toBe(400);
    const params = incomplete.json.error.errors.map((e: any) => e.param);
    expect(params).toEqual(
      expect.arrayContaining(["merchant.legal_business_name", "merchant.bank_account", "merchant.owner_one", "device"]),
    );

    await api.call("PATCH", "/v1/onboarding/session", {
      auth: s.auth,
      body: { merchant: application(), device: { catalog_id: "pax-a920" } },
    });
    const unsigned = await api.call("POST", "/v1/onboarding/session/submit", { auth: s.auth });
    expect(unsigned.status).toBe(400);
    expect(unsigned.json.error.errors.map((e: any) => e.param)).toEqual(["agreement"]);
    expect(
      (await api.call("POST", "/v1/onboarding/session/agreement", { auth: s.auth, body: { name: "Mei Chen" } })).status,
    ).toBe(200);
    const done = await api.call("POST", "/v1/onboarding/session/submit", { auth: s.auth });
    expect(done.status).toBe(200);
    expect(done.json.lead_onboarding_status).toBe("COMPLETED");
    const redirect = new URL(done.json.redirect_url);
    expect(redirect.origin + redirect.pathname).toBe("https://acme.example/done");
    expect(Object.fromEntries(redirect.searchParams)).toEqual({
      x: "1",
      merchant_id: s.merchant.id,
      lead_onboarding_status: "COMPLETED",
      state: "st-9",
    });

    const merchant = await api.call("GET", `/v1/merchants/${s.merchant.id}`, { auth: isv.auth });
    expect(merchant.json.lead_onboarding_status).toBe("COMPLETED");
    expect(merchant.json.requirements.disabled_reason).toBe("under_review");
    const types = (await api.db.select().from(events).where(eq(events.objectId, s.merchant.id))).map((e) => e.type);
    expect(types).toContain("merchant.submitted");
    const queued = await api.db.select().from(jobs).where(eq(jobs.type, "underwriting"));
    expect(queued.some((j) => (j.payload as any).merchant_id === s.merchant.id)).toBe(true);

    // Closed now: saving and submitting again are 409, and the ISV's prefill too.
    expect(
      (
        await api.call("PATCH", "/v1/onboarding/session", {
          auth: s.auth,
          body: { merchant: { legal_business_name: "x" } },
        })
      ).status,
    ).toBe(409);
    expect((await api.call("POST", "/v1/onboarding/session/submit", { auth: s.auth })).status).toBe(409);
    const prefill = await api.call("PATCH", `/v1/merchants/${s.merchant.id}`, {
      auth: isv.auth,
      body: { merchant: { legal_business_name: "x" } },
    });
    expect(prefill.status).toBe(409);
    expect(prefill.json.error.code).toBe("invalid_state");
  });

  test("the agreement: signed by owner one's typed name, recorded, cleared by a change, downloadable as PDF", async () => {
    const s = await session({ merchant: application() });
    const early = await session();
    const incomplete = await api.call("POST", "/v1/onboarding/session/agreement", {
      auth: early.auth,
      body: { name: "Mei Chen" },
    });
    expect(incomplete.status).toBe(400);
    expect(incomplete.json.error.code).toBe("application_incomplete");
    // A blank application: each absent field is named as missing, never "Invalid input".
    const blank = await api.call("POST", "/v1/onboarding/session/submit", { auth: early.auth });
    const errors = blank.json.error.errors as { param: string; code: string; message: string }[];
    expect(errors.find((e) => e.param === "merchant.tin")).toEqual({
      param: "merchant.tin",
      code: "parameter_missing",
      message: "merchant.tin is required",
    });
    expect(errors.filter((e) => /Invalid input/.test(e.message))).toEqual([]);
    // Before signing, in the reader's language.
    const unsigned = await fetch(`${api.baseUrl}/v1/onboarding/session/agreement.pdf`, {
      headers: { authorization: s.auth, "accept-language": "es" },
    });
    const spanishText = (await pdfText(new Uint8Array(await unsigned.arrayBuffer()))).join("\n");
    expect(spanishText).toContain("Contrato de procesamiento para comercios");
    expect(spanishText).toMatch(
      /Tarifa fija:\nCrédito Visa, Mastercard, Discover: \d+\.\d\d % \+ \$\d+\.\d\d por transacción/,
    );
    expect(spanishText).toContain("Aún sin firmar");
    expect(spanishText).toContain("Página 1 de");
    const wrong = await api.call("POST", "/v1/onboarding/session/agreement", {
      auth: s.auth,
      body: { name: "Luis Ortega" },
    });
    expect(wrong.status).toBe(400);
    expect(wrong.json.error).toMatchObject({ code: "signature_mismatch", param: "name" });
    const signed = await api.call("POST", "/v1/onboarding/session/agreement", {
      auth: s.auth,
      body: { name: "Mei Chen" },
      headers: { "user-agent": "Test Browser/1.0" },
    });
    expect(signed.status).toBe(200);
    expect(signed.json).toMatchObject({
      name: "Mei Chen",
      ip: expect.stringMatching(/127\.0\.0\.1/),
      user_agent: "Test Browser/1.0",
      version: "2026-12",
    });
    const view = await api.call("GET", "/v1/onboarding/session", { auth: s.auth });
    expect(view.json.agreement).toMatchObject({ signed: true, name: "Mei Chen" });
    const pdf = await fetch(`${api.baseUrl}/v1/onboarding/session/agreement.pdf`, {
      headers: { authorization: s.auth },
    });
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get("content-type")).toBe("application/pdf");
    const bytes = Buffer.from(await pdf.arrayBuffer());
    expect(bytes.subarray(0, 5).toString()).toBe("%PDF-");
    expect(bytes.toString("latin1")).not.toContain("000123456789");
    // Read as the merchant reads it: pricing and the signature time in words, nothing raw.
    const text = (await pdfText(bytes)).join("\n");
    expect(text).not.toContain("000123456789");
    expect(text).toMatch(/Flat rate:\nVisa, Mastercard, Discover credit: \d+\.\d\d % \+ \$\d+\.\d\d per transaction/);
    expect(text).not.toMatch(/_percent|_fixed|flat_rate|\d{4}-\d\d-\d\dT/);
    const day = new Intl.DateTimeFormat("en-US", { dateStyle: "long", timeZone: "UTC" }).format(
      new Date(signed.json.signed_at),
    );
    expect(text).toContain(`Signed by Mei Chen on ${day} at`);
    expect(text).toContain("Page 1 of");
    expect(pdfToPngs(bytes, "agreement-signed").length).toBeGreaterThan(0);
    const spanish = await fetch(`${api.baseUrl}/v1/onboarding/session/agreement.pdf`, {
      headers: { authorization: s.auth, "accept-language": "es" },
    });
    // Shown in the language it was signed in (English), whatever the reader's.
    expect((await pdfText(new Uint8Array(await spanish.arrayBuffer()))).join("\n")).toContain("Signed by Mei Chen");
    await api.call("PATCH", "/v1/onboarding/session", {
      auth: s.auth,
      body: { merchant: { doing_business_as: "Changed" } },
    });
    expect((await api.call("GET", "/v1/onboarding/session", { auth: s.auth })).json.agreement.signed).toBe(false);
  });

  test("the chosen terminal and its one-time price are in the agreement; the ISV's new price asks for a new signature", async () => {
    const s = await session({ merchant: application() });
    await api.call("PATCH", "/v1/onboarding/session", { auth: s.auth, body: { device: { catalog_id: "pax-a920" } } });
    const read = async () =>
      (
        await pdfText(
          new Uint8Array(
            await (
              await fetch(`${api.baseUrl}/v1/onboarding/session/agreement.pdf`, { headers: { authorization: s.auth } })
            ).arrayBuffer(),
          ),
        )
      ).join(" ");
    expect(await read()).toMatch(/PAX A920 Pro: a one-time price of \$349\.00, supplied and billed by Acme POS/);
    const signed = await api.call("POST", "/v1/onboarding/session/agreement", {
      auth: s.auth,
      body: { name: "Mei Chen" },
    });
    expect(signed.status, signed.text).toBe(200);
    const devices = (await api.call("GET", "/v1/account", { auth: isv.auth })).json.settings.devices as {
      id: string;
      price?: number;
    }[];
    const repriced = devices.map((d) => (d.id === "pax-a920" ? { ...d, price: 39_900 } : d));
    await api.call("PATCH", "/v1/account", { auth: isv.auth, body: { settings: { devices: repriced } } });
    expect((await api.call("GET", "/v1/onboarding/session", { auth: s.auth })).json.agreement.signed).toBe(false);
    expect(await read()).toContain("a one-time price of $399.00");
    await api.call("PATCH", "/v1/account", { auth: isv.auth, body: { settings: { devices } } });
  });

  /** A complete application with a device, signed by owner one: ready to submit. */
  async function signedSession() {
    const s = await session({ merchant: application() });
    expect(
      (
        await api.call("PATCH", "/v1/onboarding/session", {
          auth: s.auth,
          body: { device: { catalog_id: "pax-a920" } },
        })
      ).status,
    ).toBe(200);
    expect(
      (await api.call("POST", "/v1/onboarding/session/agreement", { auth: s.auth, body: { name: "Mei Chen" } })).status,
    ).toBe(200);
    expect((await api.call("GET", "/v1/onboarding/session", { auth: s.auth })).json.agreement.signed).toBe(true);
    return s;
  }

  test.each([
    ["the bank account", { merchant: { bank_account: { routing_number: "011000015" } } }],
    [
      "the pricing",
      { merchant: { capabilities: { types: ["flat_rate"], options: { flat_rate: { rate_percent: "9.99" } } } } },
    ],
    ["the monthly fees", { merchant: { fees: { monthly: { minimum_processing_fee: 25 } } } }],
  ])(
    "PATCH /v1/merchants/{id} of %s after owner one signed unsigns: submit asks for a new signature",
    async (_what, body) => {
      const s = await signedSession();
      const patched = await api.call("PATCH", `/v1/merchants/${s.merchant.id}`, { auth: isv.auth, body });
      expect(patched.status).toBe(200);
      const view = await api.call("GET", "/v1/onboarding/session", { auth: s.auth });
      expect(view.json.agreement).toEqual({ signed: false, name: null, signed_at: null });
      expect(view.json.steps.find((x: any) => x.id === "agreement").complete).toBe(false);
      const submit = await api.call("POST", "/v1/onboarding/session/submit", { auth: s.auth });
      expect(submit.status).toBe(400);
      expect(submit.json.error.errors.map((e: any) => e.param)).toEqual(["agreement"]);
      expect(
        (await api.call("GET", `/v1/merchants/${s.merchant.id}`, { auth: isv.auth })).json.lead_onboarding_status,
      ).toBe("IN_PROGRESS");
      // The PDF shows no signature under the new terms.
      const pdf = new Uint8Array(
        await (
          await fetch(`${api.baseUrl}/v1/onboarding/session/agreement.pdf`, { headers: { authorization: s.auth } })
        ).arrayBuffer(),
      );
      const text = (await pdfText(pdf)).join("\n");
      expect(text).toContain("Not signed yet");
      expect(text).not.toContain("Signed by");
      // Signing again covers the new text, and then submit passes.
      expect(
        (await api.call("POST", "/v1/onboarding/session/agreement", { auth: s.auth, body: { name: "Mei Chen" } }))
          .status,
      ).toBe(200);
      expect((await api.call("POST", "/v1/onboarding/session/submit", { auth: s.auth })).status).toBe(200);
    },
  );

  test("the signature records the SHA-256 of the text signed; a signature whose text no longer matches is refused on submit", async () => {
    const s = await signedSession();
    const [row] = await api.db.select().from(merchants).where(eq(merchants.id, s.merchant.id));
    expect((row!.agreement as any).text_sha256).toMatch(/^[0-9a-f]{64}$/);
    // The text changes without going through the writer (here: the ISV renames itself).
    expect(
      (
        await api.call("PATCH", "/v1/account", {
          auth: isv.auth,
          body: { defaults: { display_name: "Acme POS Renamed" } },
        })
      ).status,
    ).toBe(200);
    try {
      const submit = await api.call("POST", "/v1/onboarding/session/submit", { auth: s.auth });
      expect(submit.status).toBe(400);
      expect(submit.json.error.errors).toEqual([
        {
          param: "agreement",
          code: "parameter_missing",
          message: "The agreement changed after it was signed: owner one must sign it again",
        },
      ]);
    } finally {
      await api.call("PATCH", "/v1/account", { auth: isv.auth, body: { defaults: { display_name: "Acme POS" } } });
    }
  });

  test("a session ended by a newer link cannot sign the agreement, and nothing is recorded", async () => {
    const s = await session({ merchant: application() });
    expect((await link({ merchant_id: s.merchant.id })).status).toBe(200);
    const sign = await api.call("POST", "/v1/onboarding/session/agreement", {
      auth: s.auth,
      body: { name: "Mei Chen" },
    });
    expect(sign.status).toBe(401);
    expect(sign.json.error.code).toBe("unauthenticated");
    const [row] = await api.db.select().from(merchants).where(eq(merchants.id, s.merchant.id));
    expect(row!.agreement).toBeNull();
    expect((await api.call("POST", "/v1/onboarding/session/submit", { auth: s.auth })).status).toBe(401);
  });

  test("a session lasts 30 minutes: the cookie's Max-Age and the token's exp agree; an expired or foreign token is refused", async () => {
    const m = await newMerchant();
    const l = (await link({ merchant_id: m.id })).json;
    const { cookie, token } = await open(l.url);
    expect(cookie).toMatch(/Max-Age=1800(;|$)/);
    const claims = JSON.parse(Buffer.from(token!.split(".")[1]!, "base64url").toString());
    expect(claims.exp - claims.iat).toBe(1800);
    expect(claims).toMatchObject({ sub: m.id, lnk: l.id, isv: isv.account_id, aud: "onboarding" });
    expect((await api.call("GET", "/v1/onboarding/session", { auth: `Bearer ${token}` })).status).toBe(200);
    const expired = await signToken({ lnk: l.id, isv: isv.account_id }, m.id, -60, "onboarding");
    const refused = await api.call("GET", "/v1/onboarding/session", { auth: `Bearer ${expired}` });
    expect(refused.status).toBe(401);
    expect(refused.json.error.code).toBe("unauthenticated");
    const otherAudience = await signToken({ lnk: l.id, isv: isv.account_id }, m.id, 600, "api");
    expect((await api.call("GET", "/v1/onboarding/session", { auth: `Bearer ${otherAudience}` })).status).toBe(401);
  });

  test("a session slides with use but never lives more than 12 hours from the link's opening", async () => {
    const m = await newMerchant();
    const l = (await link({ merchant_id: m.id })).json;
    const { token } = await open(l.url);
    const started = JSON.parse(Buffer.from(token!.split(".")[1]!, "base64url").toString()).ses;
    expect(Math.abs(started - Date.now() / 1000)).toBeLessThan(60);
    // A renewal (a cookie-authenticated call) keeps when the session started: made in a later
    // second than the opening, so that a renewal starting the session anew cannot pass by chance.
    await until(
      () => Math.floor(Date.now() / 1000),
      (now) => now > started,
      3000,
      "the next second",
    );
    const res = await fetch(`${api.baseUrl}/v1/onboarding/session`, {
      headers: { cookie: `onboarding_session=${token}` },
    });
    const renewed = res.headers.get("set-cookie")?.match(/onboarding_session=([^;]+)/)?.[1];
    expect(JSON.parse(Buffer.from(renewed!.split(".")[1]!, "base64url").toString()).ses).toBe(started);
    // Started 12 hours ago: refused, however fresh the token itself.
    const old = Math.floor(Date.now() / 1000) - 12 * 3600 - 5;
    const stale = await signToken({ lnk: l.id, isv: isv.account_id, ses: old }, m.id, 600, "onboarding");
    const refused = await api.call("GET", "/v1/onboarding/session", { auth: `Bearer ${stale}` });
    expect(refused.status).toBe(401);
    const nearly = await signToken({ lnk: l.id, isv: isv.account_id, ses: old + 3600 }, m.id, 600, "onboarding");
    expect((await api.call("GET", "/v1/onboarding/session", { auth: `Bearer ${nearly}` })).status).toBe(200);
  });

  test("on another ISV's custom domain a session is refused; on its own ISV's domain it works", async () => {
    const mine = await api.newIsv("Mine POS");
    const theirs = await api.newIsv("Theirs POS");
    const suffix = `${Date.now()}-${Math.random().toString(36).slice(2, 6)}`;
    await api.call("PATCH", "/v1/account", {
      auth: mine.auth,
      body: { defaults: { custom_domain: `mine-${suffix}.example` } },
    });
    await api.call("PATCH", "/v1/account", {
      auth: theirs.auth,
      body: { defaults: { custom_domain: `theirs-${suffix}.example` } },
    });
    for (const who of [mine, theirs])
      await api.call("POST", "/v1/test_helpers/account/custom_domain/verify", { auth: who.auth });
    const m = (await api.call("POST", "/v1/merchants", { auth: mine.auth, body: { phone: "+14155550123" } })).json;
    const l = (await link({ merchant_id: m.id }, mine.auth)).json;
    const { token } = await open(l.url);
    // fetch cannot set Host: node:http can.
    const at = (host: string, method = "GET", body?: unknown) =>
      new Promise<{ status: number; json: any }>((resolve, reject) => {
        const url = new URL(`${api.baseUrl}/v1/onboarding/session${method === "POST" ? "/agreement" : ""}`);
        const req = http.request(
          url,
          {
            method,
            headers: {
              host,
              authorization: `Bearer ${token}`,
              ...(body ? { "content-type": "application/json" } : {}),
            },
          },
          (res) => {
            let text = "";
            res.on("data", (d) => (text += d));
            res.on("end", () => resolve({ status: res.statusCode!, json: JSON.parse(text) }));
          },
        );
        req.on("error", reject);
        req.end(body ? JSON.stringify(body) : undefined);
      });
    expect((await at(`mine-${suffix}.example`)).status).toBe(200);
    const refused = await at(`theirs-${suffix}.example`);
    expect(refused.status).toBe(401);
    expect(refused.json.error.message).toBe("This onboarding session belongs to another site");
    expect((await at(`theirs-${suffix}.example`, "POST", { name: "x" })).status).toBe(401);
  });

  test("a newer link ends the older link's session", async () => {
    const s = await session();
    await link({ merchant_id: s.merchant.id });
    const res = await api.call("GET", "/v1/onboarding/session", { auth: s.auth });
    expect(res.status).toBe(401);
  });

  test("with no return URL anywhere, submit sends the browser to the all-done page", async () => {
    const fresh = await api.newIsv();
    const m = (
      await api.call("POST", "/v1/merchants", {
        auth: fresh.auth,
        body: { phone: "+14155550123", merchant: application() },
      })
    ).json;
    const l = (await link({ merchant_id: m.id, allow_skip_device_selection: true }, fresh.auth)).json;
    const { token } = await open(l.url);
    await api.call("PATCH", "/v1/onboarding/session", {
      auth: `Bearer ${token}`,
      body: { device_selection: "skipped" },
    });
    await api.call("POST", "/v1/onboarding/session/agreement", {
      auth: `Bearer ${token}`,
      body: { name: "mei  chen" },
    });
    const done = await api.call("POST", "/v1/onboarding/session/submit", { auth: `Bearer ${token}` });
    expect(done.status).toBe(200);
    expect(new URL(done.json.redirect_url).pathname).toBe("/onboarding/complete");
  });

  test("events carry the merchant as the API shows it, masked", async () => {
    const s = await session({ merchant: application() });
    const [created] = await api.db.select().from(events).where(eq(events.objectId, s.merchant.id));
    expect(created!.type).toBe("merchant.created");
    expect((created!.data as any).merchant.tin).toBe("*****6789");
    expect(created!.accountId).toBe(isv.account_id);
  });

  test("another ISV cannot create a link for this merchant", async () => {
    const s = await session();
    const res = await link({ merchant_id: s.merchant.id }, other.auth);
    expect(res.status).toBe(404);
  });
});

describe("save and finish later", () => {
  test("a new link e-mailed in the reader's language: the same return URL and state, the old link and session ended, the answers kept; 3 an hour", async () => {
    const merchant = await api.call("POST", "/v1/merchants", {
      auth: isv.auth,
      body: { phone: "+14155550123", merchant: { legal_business_name: "Later LLC" } },
    });
    const made = await api.call("POST", "/v1/onboarding_links", {
      auth: isv.auth,
      body: {
        merchant_id: merchant.json.id,
        type: "account_onboarding",
        return_url: "https://isv.example/done",
        state: "s-42",
      },
    });
    const auth = await openLink(api, made.json.url);
    expect(
      (await api.call("PATCH", "/v1/onboarding/session", { auth, body: { merchant: { doing_business_as: "Later" } } }))
        .status,
    ).toBe(200);
    const bad = await api.call("POST", "/v1/onboarding/session/resume_link", { auth, body: { email: "nope" } });
    expect([bad.status, bad.json.error.param]).toEqual([400, "email"]);
    const sent = await api.call("POST", "/v1/onboarding/session/resume_link", {
      auth,
      body: { email: "ana@later.example", locale: "es" },
    });
    expect(sent.status).toBe(200);
    expect(sent.json).toMatchObject({ object: "resume_link", sent_to: "ana@later.example" });
    const mail = (await api.call("GET", "/v1/test_helpers/outbox", { auth: isv.auth })).json.data.find(
      (m: any) => m.kind === "onboarding.resume_link" && m.merchant_id === merchant.json.id,
    );
    expect(mail).toMatchObject({ to: "ana@later.example", locale: "es", sender_name: "Acme POS" });
    expect(mail.subject).toBe("Acme POS: termine su solicitud");
    expect(mail.text).toContain("Funciona durante 24 horas");
    const url = /https?:\/\/\S+\/onboard\/[A-Za-z0-9]+/.exec(mail.text)![0];
    // The session in hand and the old link end; the e-mailed one opens the saved answers, with the
    // first link's return URL and state.
    expect((await api.call("GET", "/v1/onboarding/session", { auth })).status).toBe(401);
    const old = await fetch(api.baseUrl + new URL(made.json.url).pathname, { redirect: "manual" });
    expect(old.headers.get("set-cookie") ?? "").not.toMatch(/onboarding_session=[^;]/);
    const again = await openLink(api, url);
    const resumed = await api.call("GET", "/v1/onboarding/session", { auth: again });
    expect(resumed.json.merchant.doing_business_as).toBe("Later");
    expect(resumed.json.return_url).toBe("https://isv.example/done");
    const [row] = await api.db
      .select()
      .from(onboardingLinks)
      .where(eq(onboardingLinks.merchantId, merchant.json.id))
      .orderBy(asc(onboardingLinks.createdAt));
    expect(row!.supersededAt).not.toBeNull();
    // Three an hour: the fourth is refused and sends nothing.
    let session = again;
    for (let i = 0; i < 2; i++) {
      expect(
        (
          await api.call("POST", "/v1/onboarding/session/resume_link", {
            auth: session,
            body: { email: "ana@later.example" },
          })
        ).status,
      ).toBe(200);
      const latest = (await api.call("GET", "/v1/test_helpers/outbox", { auth: isv.auth })).json.data.find(
        (m: any) => m.kind === "onboarding.resume_link" && m.merchant_id === merchant.json.id,
      );
      session = await openLink(api, /https?:\/\/\S+\/onboard\/[A-Za-z0-9]+/.exec(latest.text)![0]);
    }
    const fourth = await api.call("POST", "/v1/onboarding/session/resume_link", {
      auth: session,
      body: { email: "ana@later.example" },
    });
    expect([fourth.status, fourth.json.error.code]).toEqual([429, "rate_limited"]);
    const mails = (await api.call("GET", "/v1/test_helpers/outbox", { auth: isv.auth })).json.data.filter(
      (m: any) => m.kind === "onboarding.resume_link" && m.merchant_id === merchant.json.id,
    );
    expect(mails).toHaveLength(3);
    expect((await api.call("GET", "/v1/onboarding/session", { auth: session })).status).toBe(200);
  });
});
