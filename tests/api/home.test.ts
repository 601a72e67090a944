import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";

import { verifyToken } from "@/lib/auth/jwt";
import { events, merchantLoginTokens, merchants, outbox } from "@/lib/db/schema";
import { rotateApiKey } from "@/lib/domain/accounts/rotate-api-key";
import { createFile } from "@/lib/domain/files/create-file";
import { reportChange } from "@/lib/domain/home/change-notices";
import { emailLoginLinks, homeMerchant, redeemLoginLink } from "@/lib/domain/home/login";
import {
  bankAccountSummary,
  bankCheckOf,
  changeBankAccount,
  changeContact,
  confirmContactEmailChange,
} from "@/lib/domain/home/settings";
import { checkLedger } from "@/lib/ledger/check";

import { startTestApi, type TestApi } from "../helpers/api";
import { freshHomeSession } from "../helpers/fixtures";
import { submittedMerchant } from "../helpers/onboarding";
import { approvedMerchant, tokenize } from "../helpers/payments";
import { until } from "../helpers/until";

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
    const [first, second] = await Promise.all([redeemLoginLink(api.db, token), redeemLoginLink(api.db, token)]);
    const won = [first, second].filter((u) => u !== null);
    expect(won).toHaveLength(1); // two clicks racing: one session
    expect(await redeemLoginLink(api.db, token)).toBeNull();
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
    expect(await redeemLoginLink(api.db, tokenOf(res.json.url))).toBeNull();

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
    expect((await redeemLoginLink(api.db, tokenOf(url)))?.merchantId).toBe(merchantId);
    // Scoped to one ISV (its custom domain's sign-in page): another ISV's merchants get nothing.
    expect(await emailLoginLinks(api.db, "mei@example.com", { locale: "en", isvAccountId: other.account_id })).toBe(0);
    expect(await emailLoginLinks(api.db, "nobody@example.com", { locale: "en" })).toBe(0);
  });
});

describe("the merchant's own key, its settings, and its onboarding link after approval", () => {
  /** A paid scan-to-pay charge of `amount` cents for the merchant. */
  async function paidCharge(merchant: { id: string; publishableKey: string }, amount: number) {
    const pr = (
      await api.call("POST", "/v1/scan_to_pay", { auth: isv.auth, body: { merchant_id: merchant.id, amount } })
    ).json;
    const paid = await api.call("POST", `/v1/payment_requests/${pr.id}/pay`, {
      body: { token: await tokenize(api, merchant.publishableKey) },
    });
    expect(paid.status).toBe(200);
    return { chargeId: paid.json.charge.id as string, requestId: pr.id as string };
  }

  test("the key from the home's developer section opens that merchant's payments alone, on every payments resource", async () => {
    const mine = await approvedMerchant(api, isv);
    const sibling = await approvedMerchant(api, isv); // the same ISV's other merchant
    const [row] = await api.db.select().from(merchants).where(eq(merchants.id, mine.id));
    const rotated = await rotateApiKey(api.db, row!.merchantAccountId!, false);
    const own = `Basic ${Buffer.from(`${rotated.account_sid}:${rotated.secret_key}`).toString("base64")}`;
    const a = await paidCharge(mine, 1500);
    const b = await paidCharge(sibling, 2500);
    const refund = await api.call("POST", "/v1/refunds", {
      auth: isv.auth,
      body: { charge_id: b.chargeId, amount: 100 },
    });
    expect(refund.status).toBe(200);

    const charges = await api.call("GET", "/v1/charges?limit=100", { auth: own });
    expect(charges.status).toBe(200);
    expect(charges.json.data.map((c: { id: string }) => c.id)).toEqual([a.chargeId]);
    expect((await api.call("GET", `/v1/charges/${a.chargeId}`, { auth: own })).status).toBe(200);
    for (const path of [
      `/v1/charges/${b.chargeId}`,
      `/v1/refunds/${refund.json.id}`,
      `/v1/payment_requests/${b.requestId}`,
      `/v1/statements/${sibling.id}`,
    ]) {
      const res = await api.call("GET", path, { auth: own });
      expect([path, res.status, res.json.error.code]).toEqual([path, 404, "resource_missing"]);
    }
    const requests = await api.call("GET", "/v1/payment_requests?limit=100", { auth: own });
    expect(requests.json.data.map((r: { id: string }) => r.id)).toEqual([a.requestId]);
    expect((await api.call("GET", "/v1/refunds?limit=100", { auth: own })).json.data).toEqual([]);
    expect((await api.call("GET", `/v1/statements/${mine.id}`, { auth: own })).status).toBe(200);
    // Settled: its own settlement is listed and readable; the sibling's is "no such settlement".
    const run = await api.call("POST", "/v1/test_helpers/settlement/run", { auth: isv.auth, body: {} });
    const theirs = run.json.data.find((st: { merchant_id: string }) => st.merchant_id === sibling.id);
    const ours = run.json.data.find((st: { merchant_id: string }) => st.merchant_id === mine.id);
    const settlements = await api.call("GET", "/v1/settlements?limit=100", { auth: own });
    expect(settlements.json.data.map((st: { id: string }) => st.id)).toEqual([ours.id]);
    expect((await api.call("GET", `/v1/settlements/${ours.id}`, { auth: own })).status).toBe(200);
    const foreignSettlement = await api.call("GET", `/v1/settlements/${theirs.id}`, { auth: own });
    expect([foreignSettlement.status, foreignSettlement.json.error.code]).toEqual([404, "resource_missing"]);
    // Acting for the sibling is "no such merchant"; for itself, a payment request is made.
    const foreign = await api.call("POST", "/v1/scan_to_pay", {
      auth: own,
      body: { merchant_id: sibling.id, amount: 100 },
    });
    expect([foreign.status, foreign.json.error.code]).toEqual([404, "resource_missing"]);
    const made = await api.call("POST", "/v1/scan_to_pay", { auth: own, body: { merchant_id: mine.id, amount: 100 } });
    expect([made.status, made.json.merchant_id]).toEqual([200, mine.id]);
    // Not an ISV's key: merchants and onboarding stay the ISV's.
    expect((await api.call("GET", "/v1/merchants", { auth: own })).status).toBe(403);
    // Rotated again: the first secret stops at once.
    await rotateApiKey(api.db, row!.merchantAccountId!, false);
    expect((await api.call("GET", "/v1/charges", { auth: own })).status).toBe(401);
  });

  test("a contact e-mail change's link stops working once the change expired, and after 'this wasn't me'", async () => {
    const read = async (id: string) => (await api.db.select().from(merchants).where(eq(merchants.id, id)))[0]!;
    const contactOf = async (id: string) =>
      ((await read(id)).application.main_contact_person as { email: string }).email;
    /** A change of the contact's e-mail to `email`: the link sent to it, and the notice's "this wasn't me" link. */
    const asked = async (id: string, email: string) => {
      await changeContact(api.db, id, { name: "Ana Ruiz", email }, freshHomeSession());
      const mails = await api.db
        .select()
        .from(outbox)
        .where(sql`${outbox.merchantId} = ${id}`)
        .orderBy(outbox.createdAt);
      const confirm = mails.filter((m) => m.kind === "contact_email_confirm").at(-1)!;
      const notice = mails.filter((m) => /\/home\/report\//.test(m.text)).at(-1)!;
      return {
        confirm: confirm.text.match(/\/home\/confirm-email\/(\S+)/)![1]!,
        report: notice.text.match(/\/home\/report\/(\S+)/)![1]!,
      };
    };

    // Expired: the link no longer confirms; the contact is as it was.
    const late = await approvedMerchant(api, isv);
    const lateContact = await contactOf(late.id);
    const { confirm: lateLink } = await asked(late.id, "late@example.com");
    const waiting = (await read(late.id)).pendingContactEmail!;
    await api.db
      .update(merchants)
      .set({ pendingContactEmail: { ...waiting, expires_at: new Date(Date.now() - 1_000).toISOString() } })
      .where(eq(merchants.id, late.id));
    expect(await confirmContactEmailChange(api.db, lateLink)).toBeNull();
    expect(await contactOf(late.id)).toBe(lateContact);

    // "This wasn't me" from the previous contact's notice: the waiting change is dropped, and its link
    // confirms nothing after.
    const reported = await approvedMerchant(api, isv);
    const reportedContact = await contactOf(reported.id);
    const links = await asked(reported.id, "thief@example.com");
    expect((await read(reported.id)).pendingContactEmail?.email).toBe("thief@example.com");
    expect(await reportChange(api.db, links.report)).not.toBeNull();
    expect((await read(reported.id)).pendingContactEmail).toBeNull();
    expect(await confirmContactEmailChange(api.db, links.confirm)).toBeNull();
    expect(await contactOf(reported.id)).toBe(reportedContact);
  });

  test("the contact changes by the application's rules; a bad e-mail changes nothing; merchant.updated is written", async () => {
    const { id } = await approvedMerchant(api, isv);
    const read = async () => (await api.db.select().from(merchants).where(eq(merchants.id, id)))[0]!;
    const before = await read();
    await expect(
      changeContact(api.db, id, { name: "Ana Ruiz", email: "not-an-email" }, freshHomeSession()),
    ).rejects.toMatchObject({
      code: "parameter_invalid",
      errors: [expect.objectContaining({ param: "merchant.main_contact_person.email" })],
    });
    const unchanged = await read();
    expect(unchanged.application).toEqual(before.application);
    expect(unchanged.updatedAt).toEqual(before.updatedAt);

    await changeContact(
      api.db,
      id,
      { name: "Ana Ruiz", email: "ana@example.com", business_phone: "+1 415 555 0134" },
      freshHomeSession(),
    );
    // The new address is not the contact's until it confirms (the link sent to it).
    const waiting = await read();
    expect(waiting.application.main_contact_person).toEqual({
      name: "Ana Ruiz",
      email: (before.application.main_contact_person as { email: string }).email,
    });
    expect(waiting.pendingContactEmail?.email).toBe("ana@example.com");
    expect(await emailLoginLinks(api.db, "ana@example.com", { locale: "en", isvAccountId: isv.account_id })).toBe(0);
    const [confirmMail] = await api.db
      .select()
      .from(outbox)
      .where(sql`${outbox.merchantId} = ${id} and ${outbox.kind} = 'contact_email_confirm'`);
    expect(confirmMail!.to).toBe("ana@example.com");
    const confirmToken = confirmMail!.text.match(/\/home\/confirm-email\/(\S+)/)![1]!;
    expect(await confirmContactEmailChange(api.db, confirmToken)).not.toBeNull();
    // Once only: the same link again changes nothing.
    expect(await confirmContactEmailChange(api.db, confirmToken)).toBeNull();
    const after = await read();
    expect(after.application.main_contact_person).toEqual({ name: "Ana Ruiz", email: "ana@example.com" });
    expect(after.application.business_phone).toBe("+14155550134");
    // The signature stands: the contact is not in the agreement's text.
    expect(after.agreement).toEqual(before.agreement);
    const updated = await api.db
      .select()
      .from(events)
      .where(sql`${events.objectId} = ${id} and ${events.type} = 'merchant.updated'`)
      .orderBy(events.seq);
    expect(updated.at(-1)?.data).toMatchObject({ merchant: { main_contact_person: { email: "ana@example.com" } } });
    // Sign-in links now go to the new address.
    expect(await emailLoginLinks(api.db, "ana@example.com", { locale: "en", isvAccountId: isv.account_id })).toBe(1);

    const pending = (await api.call("POST", "/v1/merchants", { auth: isv.auth, body: { phone: "+14155550123" } })).json;
    await expect(
      changeContact(api.db, pending.id, { name: "X", email: "x@example.com" }, freshHomeSession()),
    ).rejects.toMatchObject({
      code: "merchant_not_approved",
    });
  });

  test("the same onboarding link leads to the home's sign-in once the merchant is approved (no session), to the wizard before", async () => {
    const merchant = (await api.call("POST", "/v1/merchants", { auth: isv.auth, body: { phone: "+14155550123" } }))
      .json;
    const link = (
      await api.call("POST", "/v1/onboarding_links", {
        auth: isv.auth,
        body: { merchant_id: merchant.id, type: "account_onboarding" },
      })
    ).json;
    const open = () => fetch(api.baseUrl + new URL(link.url).pathname, { redirect: "manual" });
    const before = await open();
    expect([before.status, before.headers.get("location")]).toEqual([303, "/onboarding"]);
    expect(before.headers.get("set-cookie")).toMatch(/^onboarding_session=/);

    await api.db.update(merchants).set({ status: "APPROVED" }).where(eq(merchants.id, merchant.id));
    // Approved: the link is no reusable login (it may sit in a mailbox for days): it leads to the
    // home's sign-in, which e-mails a single-use link to the contact, and sets no session.
    const after = await open();
    expect([after.status, after.headers.get("location")]).toEqual([303, "/home/sign-in?approved=1"]);
    expect(after.headers.get("set-cookie")).toBeNull();
  });

  test("a new bank account: the application's rules, encrypted, verified again; a document when the check asks, then verified", async () => {
    const { id } = await approvedMerchant(api, isv);
    const read = async () => (await api.db.select().from(merchants).where(eq(merchants.id, id)))[0]!;
    const before = await read();
    const bank = {
      bank_name: "Bay Credit Union",
      routing_number: "121000358",
      account_holder_name: "Golden Gate Noodles LLC",
      account_number: "000444444440",
      account_number_confirm: "000444444440",
    };
    // Account numbers that differ, a routing number that fails its checksum: refused, nothing written.
    await expect(
      changeBankAccount(
        api.db,
        id,
        { ...bank, routing_number: "121000359", account_number_confirm: "000444444441" },
        freshHomeSession(),
      ),
    ).rejects.toMatchObject({
      code: "routing_number_invalid",
      errors: [
        expect.objectContaining({ param: "merchant.bank_account.routing_number", code: "routing_number_invalid" }),
        expect.objectContaining({
          param: "merchant.bank_account.account_number_confirm",
          code: "account_number_mismatch",
        }),
      ],
    });
    await expect(
      changeBankAccount(api.db, id, { ...bank, account_number: "12" }, freshHomeSession()),
    ).rejects.toMatchObject({
      code: "parameter_invalid",
      errors: [expect.objectContaining({ param: "merchant.bank_account.account_number" })],
    });
    const unchanged = await read();
    expect([unchanged.application, unchanged.verification]).toEqual([before.application, before.verification]);

    await changeBankAccount(api.db, id, bank, freshHomeSession());
    const written = await read();
    expect(JSON.stringify(written.application)).not.toContain("000444444440"); // encrypted at rest
    expect(bankAccountSummary(written)).toEqual({ bankName: "Bay Credit Union", last4: "4440" });
    expect(bankCheckOf(written)?.status).toBe("pending");
    // The other checks keep their results (their inputs did not change).
    const others = (m: typeof written) => m.verification.filter((c) => c.type !== "bank_account");
    expect(others(written)).toEqual(others(before));
    // The sandbox asks for a document for this account; the merchant stays approved.
    const asked = await until(read, (m) => bankCheckOf(m)?.status !== "pending");
    expect([bankCheckOf(asked)?.status, asked.status]).toEqual(["requires_document", "APPROVED"]);
    const statement = Buffer.from(
      "%PDF-1.4\n% bank statement\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n",
    );
    await createFile(
      api.db,
      { isvAccountId: isv.account_id, merchantId: id },
      {
        purpose: "bank_document",
        filename: "statement.pdf",
        bytes: statement,
      },
    );
    expect(bankCheckOf(await read())?.status).toBe("pending");
    const verified = await until(read, (m) => bankCheckOf(m)?.status !== "pending");
    expect([bankCheckOf(verified)?.status, verified.status]).toEqual(["verified", "APPROVED"]);
    // Once verified, another document is not needed (409), and nothing is stored.
    await expect(
      createFile(
        api.db,
        { isvAccountId: isv.account_id, merchantId: id },
        {
          purpose: "bank_document",
          filename: "again.pdf",
          bytes: Buffer.concat([statement, Buffer.from("% 2\n")]),
        },
      ),
    ).rejects.toMatchObject({ code: "document_not_needed" });
    const types = (await api.db.select().from(events).where(eq(events.objectId, id))).map((e) => e.type);
    expect(types.filter((t) => t === "merchant.verification_updated").length).toBeGreaterThanOrEqual(3);
  });
});

test("the ledger's invariants hold after every test above (docs/reference.md section 18)", async () => {
  expect(await checkLedger(api.db)).toEqual([]);
});
