import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";

import { homeSessionOf, startHomeSession, STEP_UP_SECONDS } from "@/lib/auth/home-session";
import { accounts, apiKeys, merchants, merchantSessions, outbox } from "@/lib/db/schema";
import { rotateApiKey } from "@/lib/domain/accounts/rotate-api-key";
import { createFile } from "@/lib/domain/files/create-file";
import { rotateKeyFromHome } from "@/lib/domain/home/api-key";
import { reportChange } from "@/lib/domain/home/change-notices";
import { redeemLoginLink } from "@/lib/domain/home/login";
import { bankCheckOf, changeBankAccount, changeContact } from "@/lib/domain/home/settings";
import { releaseMerchantPayouts } from "@/lib/domain/payouts/operator-release";
import { payoutSettingsOf, setPayoutSettings } from "@/lib/domain/payouts/settings";
import { env } from "@/lib/env";

import { startTestApi, type TestApi } from "../helpers/api";
import { freshHomeSession } from "../helpers/fixtures";
import { approvedMerchant, tokenize } from "../helpers/payments";
import { until } from "../helpers/until";

// The attacks of the security review on an approved merchant's money (docs/reference.md sections
// 15 and 16): a home session changing the bank account so that payouts follow it, a post-approval
// onboarding link used as a reusable login, sessions nobody could end.

let api: TestApi;
let isv: Awaited<ReturnType<TestApi["newIsv"]>>;
let other: Awaited<ReturnType<TestApi["newIsv"]>>;
type Merchant = Awaited<ReturnType<typeof approvedMerchant>>;

beforeAll(async () => {
  api = await startTestApi({ worker: true });
  isv = await api.newIsv("Security ISV");
  other = await api.newIsv("Other ISV");
}, 60_000);
afterAll(() => api.close());

const post = (path: string, body: unknown = {}, auth = isv.auth) => api.call("POST", path, { auth, body });
const get = (path: string, auth = isv.auth) => api.call("GET", path, { auth });
const read = async (id: string) => (await api.db.select().from(merchants).where(eq(merchants.id, id)))[0]!;

async function pay(merchant: Merchant, amount: number) {
  const pr = (await post("/v1/scan_to_pay", { merchant_id: merchant.id, amount })).json;
  const res = await api.call("POST", `/v1/payment_requests/${pr.id}/pay`, {
    body: { token: await tokenize(api, merchant.publishableKey) },
  });
  expect(res.json.charge.status).toBe("AUTHORIZED");
}
const settle = async (merchant: Merchant) =>
  (await post("/v1/test_helpers/settlement/run", { merchant_id: merchant.id })).json.data[0] as Record<string, any>;
const payoutsOf = async (id: string) =>
  (await get(`/v1/payouts?merchant_id=${id}&limit=100`)).json.data as Record<string, any>[];

const attackerBank = (number: string) => ({
  bank_name: "Attacker Bank",
  routing_number: "021000021",
  account_holder_name: "Mallory",
  account_number: number,
  account_number_confirm: number,
});

/** A session of the merchant as a login link opens it (its row and token), `via` the ISV or the e-mail. */
async function signIn(merchantId: string, auth = isv.auth) {
  const link = (await post(`/v1/merchants/${merchantId}/login_links`, {}, auth)).json;
  const used = await redeemLoginLink(api.db, link.url.split("/home/login/")[1]);
  return used!.session;
}

describe("payouts after a bank account change", () => {
  test("a changed bank account whose check fails never receives the held payouts: they wait for an operator", async () => {
    const merchant = await approvedMerchant(api, isv);
    // The account asks for a document; two unreadable documents fail its check (as production's
    // default provider fails every check).
    await changeBankAccount(api.db, merchant.id, attackerBank("000444444440"), freshHomeSession());
    await until(
      async () => bankCheckOf(await read(merchant.id))?.status,
      (s) => s === "requires_document",
      20_000,
      "the bank check to ask for a document",
    );
    await pay(merchant, 10_000);
    const settlement = await settle(merchant);
    const [held] = await payoutsOf(merchant.id);
    expect(held).toMatchObject({
      settlement_id: settlement.id,
      status: "held",
      held_reason: "bank_account_unverified",
    });
    for (const name of ["unreadable-1.pdf", "unreadable-2.pdf"]) {
      await createFile(
        api.db,
        { isvAccountId: isv.account_id, merchantId: merchant.id },
        { purpose: "bank_document", filename: name, bytes: Buffer.from(`%PDF-1.4\n% ${name}\n%%EOF\n`) },
      );
      await until(
        async () => bankCheckOf(await read(merchant.id))?.status,
        (s) => s !== "pending",
        20_000,
        "the document's answer",
      );
    }
    expect(bankCheckOf(await read(merchant.id))?.status).toBe("failed");
    // Still held, a while after the check's answer: nothing was sent to the failed account.
    await new Promise((r) => setTimeout(r, 500));
    const after = (await payoutsOf(merchant.id)).find((p) => p.id === held!.id)!;
    expect(after).toMatchObject({ status: "held", held_reason: "bank_account_unverified", arrival_date: null });
  }, 90_000);

  test("a verified new account waits out the ISV's cooling-off days (settings.new_bank_account_hold_days), then is paid", async () => {
    expect((await get("/v1/account")).json.settings.new_bank_account_hold_days).toBe(3);
    const merchant = await approvedMerchant(api, isv);
    await changeBankAccount(api.db, merchant.id, attackerBank("000123456789"), freshHomeSession());
    const verified = await until(
      () => read(merchant.id),
      (m) => bankCheckOf(m)?.status === "verified",
      20_000,
      "the new account verified",
    );
    // Three business days after today, at 00:00 UTC.
    const holdUntil = (await payoutSettingsOf(api.db, verified.id)).bankAccountHoldUntil!;
    const days = (holdUntil.getTime() - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(2);
    expect(days).toBeLessThan(9);
    await pay(merchant, 5_000);
    await settle(merchant);
    const [waiting] = await payoutsOf(merchant.id);
    expect(waiting).toMatchObject({ status: "held", held_reason: "bank_account_cooling_off" });
    // The cooling-off's end: the job queued for that moment releases it.
    await setPayoutSettings(
      api.db,
      { id: merchant.id, recipient: "merchant" },
      { bankAccountHoldUntil: new Date(Date.now() - 1000) },
    );
    await api.db.execute(
      sql`update jobs set run_at = now() where type = 'payout_reconsider' and payload->>'merchant_id' = ${merchant.id}`,
    );
    await until(
      async () => (await payoutsOf(merchant.id))[0]!.status,
      (s) => s === "in_transit",
      20_000,
      "the payout sent once the cooling-off ended",
    );
    expect((await payoutsOf(merchant.id))[0]!.bank_account).toMatchObject({ last4: "6789" });
  }, 90_000);

  test("the previous contact and owner one are told, and 'this wasn't me' freezes payouts and ends every session", async () => {
    const merchant = await approvedMerchant(api, isv);
    const before = await read(merchant.id);
    const contact = (before.application.main_contact_person as { email: string }).email;
    // The merchant signed in through a link to its own e-mail (the step-up a change needs).
    const session = await startHomeSession(api.db, before, "email");
    const current = (await homeSessionOf(api.db, session))!.session;
    const otherSession = await signIn(merchant.id);
    await changeBankAccount(api.db, merchant.id, attackerBank("000123456789"), current);
    // The session that made the change stays; the merchant's others end.
    expect(await homeSessionOf(api.db, session)).not.toBeNull();
    expect(await homeSessionOf(api.db, otherSession)).toBeNull();
    const notices = await api.db
      .select()
      .from(outbox)
      .where(and(eq(outbox.merchantId, merchant.id), eq(outbox.kind, "bank_account_changed")));
    expect(notices.map((n) => n.to)).toContain(contact);
    expect(notices[0]!.text).toContain("6789");
    expect(notices[0]!.text).not.toContain("000123456789");
    const event = (await get(`/v1/events?type=merchant.bank_account_changed&limit=100`)).json.data.find(
      (e: any) => e.data.object.id === merchant.id,
    );
    expect(event).toBeDefined();

    const reportToken = notices[0]!.text.match(/\/home\/report\/(\S+)/)![1]!;
    // The ISV's own outbox (the sandbox's) shows the notice but not its link: only the merchant's inbox has it.
    const isvView = (await get("/v1/test_helpers/outbox")).json.data.filter(
      (m: any) => m.merchant_id === merchant.id && m.kind === "bank_account_changed",
    );
    expect(isvView.length).toBe(notices.length);
    for (const mail of isvView) {
      expect(mail.text).toContain("/home/report/(hidden: sent to the merchant)");
      expect(mail.text + mail.html).not.toContain(reportToken);
    }
    expect(await reportChange(api.db, reportToken)).not.toBeNull();
    expect((await payoutSettingsOf(api.db, merchant.id)).frozenAt).not.toBeNull();
    expect(await homeSessionOf(api.db, session)).toBeNull();
    // New payouts wait; the bank account and contact cannot be changed by a session until an operator clears it.
    await pay(merchant, 2_000);
    await settle(merchant);
    expect((await payoutsOf(merchant.id))[0]).toMatchObject({ status: "held", held_reason: "payouts_frozen" });
    await expect(
      changeBankAccount(api.db, merchant.id, attackerBank("000987654321"), freshHomeSession()),
    ).rejects.toMatchObject({ code: "payouts_frozen" });
    const frozenEvents = (await get(`/v1/events?type=merchant.payouts_frozen&limit=100`)).json.data;
    expect(frozenEvents.some((e: any) => e.data.object.id === merchant.id)).toBe(true);

    // Single use, and ended by the operator's release: neither the used link nor another notice's
    // (issued before) freezes the payouts again once they are released.
    expect(await reportChange(api.db, reportToken)).toBeNull();
    await releaseMerchantPayouts(api.db, merchant.id, { unfreeze: true });
    expect((await payoutSettingsOf(api.db, merchant.id)).frozenAt).toBeNull();
    for (const notice of notices) {
      const token = notice.text.match(/\/home\/report\/(\S+)/)![1]!;
      expect(await reportChange(api.db, token)).toBeNull();
    }
    expect((await payoutSettingsOf(api.db, merchant.id)).frozenAt).toBeNull();
  }, 90_000);

  test("a bank account or contact change needs a sign-in within 15 minutes; a refused change changes nothing", async () => {
    const merchant = await approvedMerchant(api, isv);
    const before = await read(merchant.id);
    const stale = {
      id: "hs_stale",
      createdAt: new Date(Date.now() - (STEP_UP_SECONDS + 5) * 1000),
      via: "email" as const,
    };
    await expect(changeBankAccount(api.db, merchant.id, attackerBank("000123456789"), stale)).rejects.toMatchObject({
      code: "reauthentication_required",
    });
    await expect(
      changeContact(api.db, merchant.id, { name: "Mallory", email: "mallory@attacker.test" }, stale),
    ).rejects.toMatchObject({ code: "reauthentication_required" });
    await expect(changeBankAccount(api.db, merchant.id, attackerBank("000123456789"), null)).rejects.toMatchObject({
      code: "reauthentication_required",
    });
    // A session the ISV opened with its own login link, however fresh: the merchant's e-mail must sign in.
    const isvSession = (await homeSessionOf(api.db, await signIn(merchant.id)))!.session;
    expect(isvSession.via).toBe("isv");
    await expect(
      changeBankAccount(api.db, merchant.id, attackerBank("000123456789"), isvSession),
    ).rejects.toMatchObject({ code: "reauthentication_required" });
    const after = await read(merchant.id);
    expect([after.application, after.pendingContactEmail, after.updatedAt]).toEqual([
      before.application,
      null,
      before.updatedAt,
    ]);
  }, 60_000);
});

describe("home sessions end", () => {
  test("sign-out of one, deactivation, the ISV's revocation: each session's token is refused from then on", async () => {
    const merchant = await approvedMerchant(api, isv);
    const a = await signIn(merchant.id);
    const b = await signIn(merchant.id);
    expect((await homeSessionOf(api.db, a))?.merchant.id).toBe(merchant.id);
    expect((await homeSessionOf(api.db, a))?.session.via).toBe("isv");

    // Another ISV cannot end them (404), and nothing changes.
    const foreign = await post(`/v1/merchants/${merchant.id}/sessions/revoke`, {}, other.auth);
    expect(foreign.status).toBe(404);
    expect(await homeSessionOf(api.db, a)).not.toBeNull();

    const revoked = await post(`/v1/merchants/${merchant.id}/sessions/revoke`);
    expect(revoked.status).toBe(200);
    expect(revoked.json).toMatchObject({
      object: "merchant_session_revocation",
      merchant_id: merchant.id,
      revoked_sessions: 2,
    });
    expect(await homeSessionOf(api.db, a)).toBeNull();
    expect(await homeSessionOf(api.db, b)).toBeNull();
    const audit = (await get(`/v1/audit_logs?resource_id=${merchant.id}&limit=100`)).json.data.map(
      (e: any) => e.action,
    );
    expect(audit).toContain("merchant.sessions_revoked");
    // A sign-in through the ISV's own login link is the ISV acting in the merchant's home, not the merchant.
    const signedIn = (await get(`/v1/audit_logs?resource_id=${merchant.id}&limit=100`)).json.data.find(
      (e: any) => e.action === "merchant.signed_in",
    );
    expect(signedIn.actor).toEqual({ type: "isv", id: isv.account_id, via: "login_link" });

    const c = await signIn(merchant.id);
    expect(await homeSessionOf(api.db, c)).not.toBeNull();
    const patched = await api.call("PATCH", `/v1/merchants/${merchant.id}`, {
      auth: isv.auth,
      body: { deactivated: true },
    });
    expect(patched.status).toBe(200);
    expect(await homeSessionOf(api.db, c)).toBeNull();
    const rows = await api.db.select().from(merchantSessions).where(eq(merchantSessions.merchantId, merchant.id));
    expect(rows.map((r) => r.revokedReason).sort()).toEqual(["deactivated", "isv", "isv"]);
  }, 60_000);
});

test("a login link works only on its ISV's host: on another ISV's verified custom domain it is refused and stays unused", async () => {
  const merchant = await approvedMerchant(api, isv);
  await api.db
    .update(accounts)
    .set({ customDomain: "pay.other-isv.example", customDomainVerifiedAt: new Date() })
    .where(eq(accounts.id, other.account_id));
  const link = (await post(`/v1/merchants/${merchant.id}/login_links`)).json;
  const token = link.url.split("/home/login/")[1];
  expect(await redeemLoginLink(api.db, token, null, "pay.other-isv.example")).toBeNull();
  // Unused: on the service's own host it still opens the merchant's home, once.
  const serviceHost = new URL(env.PUBLIC_BASE_URL).host;
  expect((await redeemLoginLink(api.db, token, null, serviceHost))?.merchantId).toBe(merchant.id);
  expect(await redeemLoginLink(api.db, token, null, serviceHost)).toBeNull();
}, 60_000);

describe("the merchant's own API key, made in its home", () => {
  test("only after a fresh sign-in from the contact's e-mail; the contact is told; both revocations end it", async () => {
    const merchant = await approvedMerchant(api, isv);
    const row = await read(merchant.id);
    const contact = (row.application.main_contact_person as { email: string }).email;
    const [account] = await api.db.select().from(accounts).where(eq(accounts.id, row.merchantAccountId!));
    const keyWorks = async (secret: string) =>
      (
        await api.call("GET", "/v1/charges", {
          auth: `Basic ${Buffer.from(`${account!.sid}:${secret}`).toString("base64")}`,
        })
      ).status;
    // The ISV's own login link, however fresh, and a stale e-mail session: refused, no key made.
    const keysBefore = await api.db.select().from(apiKeys).where(eq(apiKeys.accountId, row.merchantAccountId!));
    const isvSession = (await homeSessionOf(api.db, await signIn(merchant.id)))!.session;
    await expect(rotateKeyFromHome(api.db, merchant.id, isvSession)).rejects.toMatchObject({
      code: "reauthentication_required",
    });
    const stale = {
      id: "hs_stale",
      createdAt: new Date(Date.now() - (STEP_UP_SECONDS + 5) * 1000),
      via: "email" as const,
    };
    await expect(rotateKeyFromHome(api.db, merchant.id, stale)).rejects.toMatchObject({
      code: "reauthentication_required",
    });
    expect(await api.db.select().from(apiKeys).where(eq(apiKeys.accountId, row.merchantAccountId!))).toEqual(
      keysBefore,
    );

    // Signed in from the e-mail: a key, remembered as the session's; the contact is told (with the
    // last four, never the secret).
    const fresh = (await homeSessionOf(api.db, await startHomeSession(api.db, row, "email")))!.session;
    const made = await rotateKeyFromHome(api.db, merchant.id, fresh);
    expect(await keyWorks(made.secret_key)).toBe(200);
    const [notice] = await api.db
      .select()
      .from(outbox)
      .where(and(eq(outbox.merchantId, merchant.id), eq(outbox.kind, "api_key_created")));
    expect(notice!.to).toBe(contact);
    expect(notice!.text).toContain(made.secret_key.slice(-4));
    expect(notice!.text).not.toContain(made.secret_key);

    // The ISV signs the merchant out everywhere: the key made in the home ends with the sessions.
    const revoked = await post(`/v1/merchants/${merchant.id}/sessions/revoke`);
    expect(revoked.json).toMatchObject({ revoked_api_keys: 1 });
    expect(await keyWorks(made.secret_key)).toBe(401);

    // Made again, then reported as not the merchant's: it ends too.
    const again = await rotateKeyFromHome(
      api.db,
      merchant.id,
      (await homeSessionOf(api.db, await startHomeSession(api.db, row, "email")))!.session,
    );
    expect(await keyWorks(again.secret_key)).toBe(200);
    const notices = await api.db
      .select()
      .from(outbox)
      .where(and(eq(outbox.merchantId, merchant.id), eq(outbox.kind, "api_key_created")));
    const report = notices.at(-1)!.text.match(/\/home\/report\/(\S+)/)![1]!;
    expect(await reportChange(api.db, report)).not.toBeNull();
    expect(await keyWorks(again.secret_key)).toBe(401);

    // A key made by the operator (not in the home) is no session's: the ISV's sign-out leaves it.
    const operatorKey = await rotateApiKey(api.db, row.merchantAccountId!, false);
    expect((await post(`/v1/merchants/${merchant.id}/sessions/revoke`)).json).toMatchObject({ revoked_api_keys: 0 });
    expect(await keyWorks(operatorKey.secret_key)).toBe(200);
  }, 90_000);
});
