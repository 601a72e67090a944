import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";

import { verifyToken } from "@/lib/auth/jwt";
import { merchantLoginTokens, outbox } from "@/lib/db/schema";
import { emailLoginLinks, homeMerchant, useLoginLink } from "@/lib/domain/home/login";

import { startTestApi, type TestApi } from "../helpers/api";
import { submittedMerchant } from "../helpers/onboarding";
import { approvedMerchant } from "../helpers/payments";

// The merchant's home sign-in (docs/reference.md section 15): single-use links that last 5 minutes,
// made by the ISV or e-mailed; a 12-hour session of that merchant alone.

let api: TestApi;
let isv: Awaited<ReturnType<TestApi["newIsv"]>>;
let other: Awaited<ReturnType<TestApi["newIsv"]>>;
let merchantId: string;

beforeAll(async () => {
  api = await startTestApi({ worker: true });
  isv = await api.newIsv("Home ISV");
  other = await api.newIsv("Other ISV");
  merchantId = (await approvedMerchant(api, isv)).id;
}, 60_000);
afterAll(() => api.close());

const tokenOf = (url: string) => url.split("/home/login/")[1]!;
const loginLink = (id: string, auth = isv.auth) =>
  api.call("POST", `/v1/merchants/${id}/login_links`, { auth, body: {} });

describe("home sign-in", () => {
  test("a login link: on the ISV's host, 5 minutes, single use; it opens a 12-hour session of that merchant", async () => {
    const before = Date.now();
    const res = await loginLink(merchantId);
    expect(res.status).toBe(200);
    expect(res.json).toEqual({
      object: "login_link",
      url: expect.stringMatching(/^http:\/\/localhost:\d+\/home\/login\/[0-9A-Za-z]{43}$/),
      expires_at: expect.any(String),
    });
    const ttl = Date.parse(res.json.expires_at) - before;
    expect(ttl).toBeGreaterThan(290_000);
    expect(ttl).toBeLessThanOrEqual(301_000);
    // Only the digest is stored.
    const stored = await api.db
      .select()
      .from(merchantLoginTokens)
      .where(eq(merchantLoginTokens.merchantId, merchantId));
    expect(JSON.stringify(stored)).not.toContain(tokenOf(res.json.url));

    const token = tokenOf(res.json.url);
    const [first, second] = await Promise.all([useLoginLink(api.db, token), useLoginLink(api.db, token)]);
    const won = [first, second].filter((u) => u !== null);
    expect(won).toHaveLength(1); // two clicks racing: one session
    expect(await useLoginLink(api.db, token)).toBeNull();
    const claims = await verifyToken(won[0]!.session, "home");
    expect(claims).toMatchObject({ kind: "merchant_home", merchant_id: merchantId, sub: merchantId });
    expect(Number(claims!.exp) - Number(claims!.iat)).toBe(12 * 3600);
    expect((await homeMerchant(api.db, won[0]!.session))?.id).toBe(merchantId);
    // The home's session is not an API credential, nor a dashboard one.
    expect(await verifyToken(won[0]!.session, "api")).toBeNull();
    expect(await homeMerchant(api.db, "not-a-token")).toBeNull();
  });

  test("an expired link opens nothing; another ISV's merchant is 404; a merchant not approved is 409, and nothing is made", async () => {
    const res = await loginLink(merchantId);
    await api.db.execute(
      sql`update merchant_login_tokens set expires_at = now() - interval '1 second' where merchant_id = ${merchantId}`,
    );
    expect(await useLoginLink(api.db, tokenOf(res.json.url))).toBeNull();

    const foreign = await loginLink(merchantId, other.auth);
    expect([foreign.status, foreign.json.error.code]).toEqual([404, "resource_missing"]);
    const count = async () => (await api.db.select().from(merchantLoginTokens)).length;
    const before = await count();
    const pending = (await api.call("POST", "/v1/merchants", { auth: isv.auth, body: { phone: "+14155550123" } })).json;
    const notYet = await loginLink(pending.id);
    expect([notYet.status, notYet.json.error.code]).toEqual([409, "invalid_state"]);
    expect(notYet.json.error.message).toMatch(/opens once it is approved \(lead_onboarding_status is NOT_STARTED\)/);
    const { id: submitted } = await submittedMerchant(api, isv, (a) => (a.tin = "222222222"));
    expect((await loginLink(submitted)).status).toBe(409);
    expect(await count()).toBe(before);
  });

  test("the e-mailed link goes to the contact's address of an approved merchant only; an unknown address gets nothing", async () => {
    const sent = await emailLoginLinks(api.db, "  Mei@Example.com ", { locale: "es" });
    expect(sent).toBeGreaterThanOrEqual(1);
    const [mail] = await api.db
      .select()
      .from(outbox)
      .where(sql`${outbox.kind} = 'home_sign_in' and ${outbox.merchantId} = ${merchantId}`);
    expect(mail).toMatchObject({ to: "mei@example.com", locale: "es", subject: "Home ISV: su enlace para entrar" });
    const url = mail!.text.match(/(http\S+\/home\/login\/\S+)/)![1]!;
    expect((await useLoginLink(api.db, tokenOf(url)))?.merchantId).toBe(merchantId);
    // Scoped to one ISV (its custom domain's sign-in page): another ISV's merchants get nothing.
    expect(await emailLoginLinks(api.db, "mei@example.com", { locale: "en", isvAccountId: other.account_id })).toBe(0);
    expect(await emailLoginLinks(api.db, "nobody@example.com", { locale: "en" })).toBe(0);
  });
});
