import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";

import { runCommand } from "@/cli/commands";
import { readSessionToken } from "@/lib/auth/onboarding-session";
import { events, merchants } from "@/lib/db/schema";
import { continueInPortal } from "@/lib/domain/onboarding/continue-in-portal";
import { completionView } from "@/lib/domain/onboarding/session";
import { reviewMerchant } from "@/lib/domain/underwriting/review-merchant";
import { giveUpUnderwriting, runUnderwriting } from "@/lib/domain/underwriting/run-underwriting";

import { startTestApi, type TestApi } from "../helpers/api";
import { application } from "../helpers/fixtures";
import { openLink, submittedMerchant, waitForStatus } from "../helpers/onboarding";
import { pdfText } from "../helpers/pdf";

let api: TestApi;
let isv: Awaited<ReturnType<TestApi["newIsv"]>>;
beforeAll(async () => {
  api = await startTestApi({ worker: true });
  isv = await api.newIsv("Acme POS");
  await api.call("PATCH", "/v1/account", {
    auth: isv.auth,
    body: { defaults: { support: { email: "risk@acme.example" } } },
  });
});
afterAll(async () => {
  const everything = api.seenBodies.join("\n");
  for (const secret of ["401234567", "402345678", "000123456789"]) expect(everything).not.toContain(secret);
  await api.close();
});

const eventTypes = async (id: string) =>
  (await api.db.select().from(events).where(eq(events.objectId, id))).map((e) => e.type);

/** Waits (bounded) until underwriting has run for this submission and held it for review; returns the row. */
async function heldForReview(id: string) {
  const start = Date.now();
  for (;;) {
    const [row] = await api.db.select().from(merchants).where(eq(merchants.id, id));
    if ((row!.underwriting as { outcome?: string } | null)?.outcome === "manual_review") return row!;
    if (row!.status !== "COMPLETED")
      throw new Error(`${id} left COMPLETED (${row!.status}) instead of waiting for review`);
    if (Date.now() - start > 10_000) throw new Error(`${id} was not held for review in 10 s`);
    await new Promise((r) => setTimeout(r, 25));
  }
}
const outbox = async () => (await api.call("GET", "/v1/test_helpers/outbox", { auth: isv.auth })).json.data;

describe("automatic underwriting", () => {
  test("a clean application is approved within 5 seconds and provisioned", async () => {
    const { id, submittedAt } = await submittedMerchant(api, isv);
    const m = await waitForStatus(api, isv, id, ["APPROVED", "FAILED", "IN_PROGRESS"], 5000);
    expect(Date.now() - submittedAt).toBeLessThan(5000);
    expect(m.lead_onboarding_status).toBe("APPROVED");
    expect(m.payment_keys.pub_api_key).toMatch(/^pk_test_/);
    expect(m.payment_keys.api_key).toMatch(/^\*+.{4}$/);
    expect(m.payment_keys.gateway_merchant_id).toMatch(/^gw_/);
    expect(m.payment_keys.processors.map((p: any) => p.processor_type).sort()).toEqual(["ACH", "CREDIT_CARD"]);
    expect(m.device).toMatchObject({ imei_status: "ACTIVE" });
    expect(m.payment.terminal_id).toMatch(/^tml_/);
    expect(m.requirements).toEqual({ currently_due: [], errors: [], disabled_reason: null, pending_verification: [] });
    expect((await eventTypes(id)).filter((t) => t === "merchant.approved")).toHaveLength(1);
  });

  test("sandbox TIN 000000000 approves; only ACH pricing provisions only ACH", async () => {
    const { id } = await submittedMerchant(api, isv, (a) => {
      a.tin = "000000000";
      a.capabilities = { types: ["ach"] };
    });
    const m = await waitForStatus(api, isv, id, ["APPROVED", "FAILED", "IN_PROGRESS"]);
    expect(m.lead_onboarding_status).toBe("APPROVED");
    expect(m.payment_keys.processors.map((p: any) => p.processor_type)).toEqual(["ACH"]);
  });

  test("sandbox TIN 999999999 declines", async () => {
    const { id } = await submittedMerchant(api, isv, (a) => (a.tin = "999999999"));
    const m = await waitForStatus(api, isv, id, ["APPROVED", "FAILED", "IN_PROGRESS"]);
    expect(m.lead_onboarding_status).toBe("FAILED");
    expect(m.requirements.disabled_reason).toBe("rejected");
    expect(await eventTypes(id)).toContain("merchant.declined");
  });

  test("information requested (TIN 111111111), then fixed through the portal link in the e-mail, then approved", async () => {
    const { id } = await submittedMerchant(api, isv, (a) => (a.tin = "111111111"));
    const m = await waitForStatus(api, isv, id, ["APPROVED", "FAILED", "IN_PROGRESS"]);
    expect(m.lead_onboarding_status).toBe("IN_PROGRESS");
    expect(m.requirements.currently_due).toEqual(["merchant.tin"]);
    expect(m.requirements.errors[0]).toMatchObject({ field: "merchant.tin", code: "tin_unverified" });
    expect(await eventTypes(id)).toContain("merchant.information_requested");

    const mails = (await outbox()).filter((e: any) => e.merchant_id === id);
    const toMerchant = mails.find((e: any) => e.kind === "information_requested.merchant");
    const toIsv = mails.find((e: any) => e.kind === "information_requested.isv");
    expect(toMerchant).toMatchObject({
      to: "mei@example.com",
      subject: "Acme POS: we need a few more details for your application",
    });
    expect(toIsv).toMatchObject({ to: "risk@acme.example" });
    for (const mail of [toMerchant, toIsv])
      for (const secret of ["111111111", "401234567", "000123456789"])
        expect(mail.text + mail.html).not.toContain(secret);
    const portalUrl = toMerchant.text.match(/(http\S+\/onboard\/\S+)/)[1];

    const session = await openLink(api, portalUrl);
    const view = (await api.call("GET", "/v1/onboarding/session", { auth: session })).json;
    expect(view.steps.find((s: any) => s.id === "business").complete).toBe(false);
    expect(view.steps.find((s: any) => s.id === "bank").complete).toBe(true);
    const early = await api.call("POST", "/v1/onboarding/session/submit", { auth: session });
    expect(early.status).toBe(400);
    expect(early.json.error.errors.map((e: any) => e.param)).toEqual(expect.arrayContaining(["merchant.tin"]));
    const fixed = await api.call("PATCH", "/v1/onboarding/session", {
      auth: session,
      body: { merchant: { tin: "123456789" } },
    });
    expect(fixed.json.requirements.currently_due).not.toContain("merchant.tin");
    await api.call("POST", "/v1/onboarding/session/agreement", { auth: session, body: { name: "Mei Chen" } });
    expect((await api.call("POST", "/v1/onboarding/session/submit", { auth: session })).status).toBe(200);
    const approved = await waitForStatus(api, isv, id, ["APPROVED", "FAILED", "IN_PROGRESS"]);
    expect(approved.lead_onboarding_status).toBe("APPROVED");
  });

  test("the page after submitting moves the wizard's session into the portal underwriting opened, and nowhere else", async () => {
    // The session as the completion page holds it (its link superseded by the portal's).
    const use = async (bearer: string) => ({ ...(await readSessionToken(bearer.slice("Bearer ".length)))!, host: "" });
    const { id, session } = await submittedMerchant(api, isv, (a) => (a.tin = "111111111"));
    expect((await waitForStatus(api, isv, id, ["APPROVED", "FAILED", "IN_PROGRESS"])).lead_onboarding_status).toBe(
      "IN_PROGRESS",
    );
    // The wizard's own session is over for everything but the completion page.
    expect((await api.call("GET", "/v1/onboarding/session", { auth: session })).status).toBe(401);
    expect((await completionView(api.db, await use(session))).answerHere).toBe(true);
    const moved = await continueInPortal(api.db, await use(session));
    const portal = `Bearer ${moved!.sessionToken}`;
    const view = (await api.call("GET", "/v1/onboarding/session", { auth: portal })).json;
    expect(view.merchant_id ?? view.id).toBeTruthy();
    expect(view.steps.find((s: any) => s.id === "business").complete).toBe(false);
    // It is the portal e-mail's link: answering there resubmits and approves.
    await api.call("PATCH", "/v1/onboarding/session", { auth: portal, body: { merchant: { tin: "123456789" } } });
    await api.call("POST", "/v1/onboarding/session/agreement", { auth: portal, body: { name: "Mei Chen" } });
    expect((await api.call("POST", "/v1/onboarding/session/submit", { auth: portal })).status).toBe(200);
    expect((await waitForStatus(api, isv, id, ["APPROVED", "FAILED", "IN_PROGRESS"])).lead_onboarding_status).toBe(
      "APPROVED",
    );
    // Decided: nothing to continue to.
    expect(await continueInPortal(api.db, await use(session))).toBeNull();
    expect((await completionView(api.db, await use(session))).answerHere).toBe(false);

    // A link the ISV made after the request superseded the session on purpose: the old session
    // never opens it, nor the portal link it superseded.
    const second = await submittedMerchant(api, isv, (a) => (a.tin = "111111111"));
    await waitForStatus(api, isv, second.id, ["APPROVED", "FAILED", "IN_PROGRESS"]);
    const made = await api.call("POST", "/v1/onboarding_links", {
      auth: isv.auth,
      body: { merchant_id: second.id, type: "account_onboarding" },
    });
    expect(made.status).toBe(200);
    expect((await completionView(api.db, await use(second.session))).answerHere).toBe(false);
    expect(await continueInPortal(api.db, await use(second.session))).toBeNull();
    // Another merchant's session never reaches this one's portal.
    const other = await submittedMerchant(api, isv, (a) => (a.tin = "111111111"));
    await waitForStatus(api, isv, other.id, ["APPROVED", "FAILED", "IN_PROGRESS"]);
    const forged = { ...(await use(other.session)), merchantId: second.id };
    await expect(continueInPortal(api.db, forged)).rejects.toThrow();
  });

  test("a failing rule (bad routing number) requests information on that field", async () => {
    const { id } = await submittedMerchant(api, isv, (a) => (a.bank_account.routing_number = "021000022"));
    const m = await waitForStatus(api, isv, id, ["APPROVED", "FAILED", "IN_PROGRESS"]);
    expect(m.lead_onboarding_status).toBe("IN_PROGRESS");
    expect(m.requirements.currently_due).toEqual(["merchant.bank_account.routing_number"]);
    expect(m.requirements.errors[0].code).toBe("routing_number_invalid");
  });

  test("sandbox TIN 222222222 waits for manual review; the operator CLI approves", async () => {
    const { id } = await submittedMerchant(api, isv, (a) => (a.tin = "222222222"));
    const row = await heldForReview(id);
    expect(row.underwriting).toMatchObject({ outcome: "manual_review", reason: "sandbox magic TIN 222222222" });
    const m = (await api.call("GET", `/v1/merchants/${id}`, { auth: isv.auth })).json;
    expect(m.lead_onboarding_status).toBe("COMPLETED");
    expect(m.requirements.disabled_reason).toBe("under_review");
    const result = await runCommand(api.handle, ["merchant", "review", id, "--approve"]);
    expect(result.code).toBe(0);
    expect((await api.call("GET", `/v1/merchants/${id}`, { auth: isv.auth })).json.lead_onboarding_status).toBe(
      "APPROVED",
    );
    const again = await runCommand(api.handle, ["merchant", "review", id, "--decline"]);
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/APPROVED/);
  });

  test("a submission the job gave up on stays with the operator when the job runs again for it", async () => {
    const { id } = await submittedMerchant(api, isv, (a) => (a.tin = "222222222"));
    await heldForReview(id);
    await api.db.transaction((tx) => giveUpUnderwriting(tx, { merchant_id: id }, new Error("rules down")));
    const [gaveUp] = await api.db.select().from(merchants).where(eq(merchants.id, id));
    expect(gaveUp!.underwriting).toMatchObject({
      outcome: "manual_review",
      reason: expect.stringContaining("rules down"),
    });
    // A verification check finishing late queues the job again for the same submission: nothing changes.
    await runUnderwriting(api.db, { merchant_id: id });
    const [after] = await api.db.select().from(merchants).where(eq(merchants.id, id));
    expect(after!.status).toBe("COMPLETED");
    expect(after!.underwriting).toEqual(gaveUp!.underwriting);
  });

  test("a high-risk subcategory goes to manual review; the CLI requests information with a reason", async () => {
    const { id } = await submittedMerchant(
      api,
      isv,
      (a) => (a.main_product = { ...a.main_product, category: "Retail", subcategory: "Pawn Shop" }),
    );
    expect((await heldForReview(id)).underwriting).toMatchObject({
      outcome: "manual_review",
      reason: "high-risk subcategory: Pawn Shop",
    });
    expect((await api.call("GET", `/v1/merchants/${id}`, { auth: isv.auth })).json.lead_onboarding_status).toBe(
      "COMPLETED",
    );
    const result = await runCommand(api.handle, [
      "merchant",
      "review",
      id,
      "--request",
      "main_product.description",
      "--reason",
      "Describe the items you buy and sell",
    ]);
    expect(result.code).toBe(0);
    const m = (await api.call("GET", `/v1/merchants/${id}`, { auth: isv.auth })).json;
    expect(m.lead_onboarding_status).toBe("IN_PROGRESS");
    expect(m.requirements.errors).toEqual([
      {
        field: "merchant.main_product.description",
        code: "information_requested",
        message: "Describe the items you buy and sell",
      },
    ]);
  });

  test("test helpers decide like the operator, and only for COMPLETED merchants of the caller", async () => {
    const { id } = await submittedMerchant(api, isv, (a) => (a.tin = "222222222"));
    await heldForReview(id);
    const other = await api.newIsv();
    expect((await api.call("POST", `/v1/test_helpers/merchants/${id}/approve`, { auth: other.auth })).status).toBe(404);
    const bad = await api.call("POST", `/v1/test_helpers/merchants/${id}/request_information`, {
      auth: isv.auth,
      body: { field: "merchant.nope", reason: "x" },
    });
    expect(bad.status).toBe(400);
    const declined = await api.call("POST", `/v1/test_helpers/merchants/${id}/decline`, {
      auth: isv.auth,
      body: { reason: "testing" },
    });
    expect(declined.json.lead_onboarding_status).toBe("FAILED");
    const again = await api.call("POST", `/v1/test_helpers/merchants/${id}/approve`, { auth: isv.auth });
    expect(again.status).toBe(409);
    expect(again.json.error.code).toBe("invalid_state");
  });

  test("two deciders racing approve the merchant once: one merchant.approved", async () => {
    const { id } = await submittedMerchant(api, isv, (a) => (a.tin = "222222222"));
    await heldForReview(id);
    const results = await Promise.allSettled(
      Array.from({ length: 5 }, () => reviewMerchant(api.db, {}, id, { action: "approve" }, "race")),
    );
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    expect((await eventTypes(id)).filter((t) => t === "merchant.approved")).toHaveLength(1);
  });

  test("notifications follow the ISV setting: merchant only", async () => {
    const fresh = await api.newIsv("Quiet ISV");
    await api.call("PATCH", "/v1/account", {
      auth: fresh.auth,
      body: { settings: { notifications: { information_requested: "merchant" } } },
    });
    const { id } = await submittedMerchant(api, fresh, (a) => (a.tin = "111111111"));
    await waitForStatus(api, fresh, id, ["IN_PROGRESS"]);
    const mails = (await api.call("GET", "/v1/test_helpers/outbox", { auth: fresh.auth })).json.data;
    expect(mails.map((m: any) => m.kind)).toEqual(["information_requested.merchant"]);
  });

  test("notifications: isv only, to the first user's e-mail when there is no support address", async () => {
    const fresh = await api.newIsv("Isv Only");
    await api.call("PATCH", "/v1/account", {
      auth: fresh.auth,
      body: { settings: { notifications: { information_requested: "isv" } } },
    });
    const { id } = await submittedMerchant(api, fresh, (a) => (a.tin = "111111111"));
    await waitForStatus(api, fresh, id, ["IN_PROGRESS"]);
    const mails = (await api.call("GET", "/v1/test_helpers/outbox", { auth: fresh.auth })).json.data;
    expect(mails.map((m: any) => [m.kind, m.to])).toEqual([["information_requested.isv", fresh.user_email]]);
  });

  test("the merchant's e-mail is in Spanish when the agreement was signed in Spanish", async () => {
    const fresh = await api.newIsv("Tienda POS");
    await api.call("PATCH", "/v1/account", {
      auth: fresh.auth,
      body: { settings: { notifications: { information_requested: "merchant" } } },
    });
    const app = application();
    app.tin = "111111111";
    const merchant = (
      await api.call("POST", "/v1/merchants", { auth: fresh.auth, body: { phone: "+14155550123", merchant: app } })
    ).json;
    const link = (
      await api.call("POST", "/v1/onboarding_links", {
        auth: fresh.auth,
        body: { merchant_id: merchant.id, type: "account_onboarding" },
      })
    ).json;
    const session = await openLink(api, link.url);
    await api.call("PATCH", "/v1/onboarding/session", { auth: session, body: { device: { catalog_id: "pax-a920" } } });
    await api.call("POST", "/v1/onboarding/session/agreement", {
      auth: session,
      body: { name: "Mei Chen" },
      headers: { "accept-language": "es-MX" },
    });
    await api.call("POST", "/v1/onboarding/session/submit", { auth: session });
    await waitForStatus(api, fresh, merchant.id, ["IN_PROGRESS"]);
    const [mail] = (await api.call("GET", "/v1/test_helpers/outbox", { auth: fresh.auth })).json.data;
    expect(mail.locale).toBe("es");
    expect(mail.subject).toBe("Tienda POS: necesitamos algunos datos más para su solicitud");
  });
});

describe("the agreement is kept as signed", () => {
  test("renaming the ISV after approval never unsigns the merchant: its agreement still reads as signed, with the name it was signed under", async () => {
    const renamed = await api.newIsv("Before Rename POS");
    const { id, session } = await submittedMerchant(api, renamed);
    expect((await waitForStatus(api, renamed, id, ["APPROVED"])).lead_onboarding_status).toBe("APPROVED");
    const agreementText = async () => {
      const res = await fetch(`${api.baseUrl}/v1/onboarding/session/agreement.pdf`, {
        headers: { authorization: session },
      });
      expect(res.status).toBe(200);
      return (await pdfText(new Uint8Array(await res.arrayBuffer()))).join("\n");
    };
    const before = await agreementText();
    expect(before).toContain("Before Rename POS");
    expect(before).toMatch(/Signed by \S+ \S+ on/);

    const patched = await api.call("PATCH", "/v1/account", {
      auth: renamed.auth,
      body: { defaults: { display_name: "After Rename POS" } },
    });
    expect(patched.status).toBe(200);
    const view = await api.call("GET", "/v1/onboarding/session", { auth: session });
    expect(view.json.agreement).toMatchObject({ signed: true });
    const after = await agreementText();
    // The very text that was signed, with its signature line.
    expect(after).toMatch(/Signed by \S+ \S+ on/);
    // The contract's own words still name the ISV it was signed with (the page header shows today's brand).
    expect(before).toContain("through Before Rename POS.");
    expect(after).toContain("through Before Rename POS.");
    // The merchant stays approved.
    expect((await api.call("GET", `/v1/merchants/${id}`, { auth: renamed.auth })).json.lead_onboarding_status).toBe(
      "APPROVED",
    );
  });
});
