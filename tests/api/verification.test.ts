import { and, eq, sql } from "drizzle-orm";
import sharp from "sharp";
import { afterAll, afterEach, beforeAll, describe, expect, test } from "vitest";

import { runCommand } from "@/cli/commands";
import { events, files, jobs } from "@/lib/db/schema";
import { sandboxProvider, setVerificationProvider, type VerificationProvider } from "@/lib/verification/provider";

import { startTestApi, type TestApi } from "../helpers/api";
import { openLink, submittedMerchant, waitForStatus } from "../helpers/onboarding";

// Verification (docs/reference.md section 14): each of the contract's magic values takes its check
// to verified, to a document request or to failed; underwriting decides only once no check is
// pending; a document attached to the check runs it again (and resubmits when it was all that was
// asked); a document nobody asked for is refused.

let api: TestApi;
let isv: Awaited<ReturnType<TestApi["newIsv"]>>;

beforeAll(async () => {
  api = await startTestApi({ worker: true });
  isv = await api.newIsv("Verification ISV");
}, 60_000);
afterAll(() => api.close());
afterEach(() => setVerificationProvider(undefined));

async function until<T>(what: string, read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 10_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms (last: ${JSON.stringify(value)})`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** A fresh session for the merchant (an information request supersedes the session that submitted). */
async function freshSession(merchantId: string) {
  const link = await api.call("POST", "/v1/onboarding_links", {
    auth: isv.auth,
    body: { merchant_id: merchantId, type: "account_onboarding" },
  });
  return openLink(api, link.json.url);
}
const getMerchant = async (id: string) => (await api.call("GET", `/v1/merchants/${id}`, { auth: isv.auth })).json;
const check = (m: any, type: string, subject = "merchant") =>
  m.verification.find((c: any) => c.type === type && c.subject === subject);
/** Under manual review: COMPLETED, and underwriting has said so. */
const underReview = (id: string) =>
  until(
    "manual review",
    async () => (await api.db.execute(sql`select underwriting from merchants where id = ${id}`)).rows[0] as any,
    (row) => row?.underwriting?.outcome === "manual_review",
  );

async function upload(
  merchantId: string,
  fields: Record<string, string>,
  file: { bytes: Buffer; name: string },
  auth: string = isv.auth,
) {
  const form = new FormData();
  form.set("merchant_id", merchantId);
  for (const [k, v] of Object.entries(fields)) form.set(k, v);
  form.set("file", new Blob([new Uint8Array(file.bytes)]), file.name);
  const res = await fetch(`${api.baseUrl}/v1/files`, { method: "POST", body: form, headers: { authorization: auth } });
  const text = await res.text();
  return { status: res.status, json: text ? JSON.parse(text) : undefined };
}
const png = (seed: number) =>
  sharp({ create: { width: 40, height: 30, channels: 3, background: { r: seed % 256, g: 80, b: 160 } } })
    .png()
    .toBuffer();
const pdf = (seed: number) =>
  Buffer.from(
    `%PDF-1.4\n% statement ${seed}\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n`,
  );

describe("verification", () => {
  test("clean data: every check verified, then approved; events for each change", async () => {
    const { id } = await submittedMerchant(api, isv);
    const approved = await waitForStatus(api, isv, id, ["APPROVED", "IN_PROGRESS", "FAILED"]);
    expect(approved.lead_onboarding_status).toBe("APPROVED");
    expect(approved.verification.map((c: any) => [c.type, c.subject, c.status, c.code])).toEqual([
      ["business", "merchant", "verified", null],
      ["identity", "owner_one", "verified", null],
      ["identity", "owner_two", "verified", null],
      ["bank_account", "merchant", "verified", null],
      ["sanctions", "merchant", "verified", null],
    ]);
    expect(approved.requirements.pending_verification).toEqual([]);
    // Internal bookkeeping (digests of SSNs, versions) never leaves.
    expect(Object.keys(approved.verification[0]).sort()).toEqual(
      ["code", "document_file_id", "message", "status", "subject", "type", "updated_at"].sort(),
    );
    const types = (
      await api.db.select({ type: events.type }).from(events).where(eq(events.objectId, id)).orderBy(events.createdAt)
    ).map((e) => e.type);
    // Queued (one event), then one per check finished, then the decision.
    expect(types.filter((t) => t === "merchant.verification_updated")).toHaveLength(6);
    expect(types.at(-1)).toBe("merchant.approved");
    expect(types.indexOf("merchant.approved")).toBeGreaterThan(types.lastIndexOf("merchant.verification_updated"));
  });

  test("underwriting waits while a check is pending and decides only after the last one", async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const inner = sandboxProvider(0);
    const held: VerificationProvider = {
      name: "held",
      check: async (request) =>
        request.type === "sanctions" ? (await gate, inner.check(request)) : inner.check(request),
      checkDocument: inner.checkDocument,
    };
    setVerificationProvider(held);
    const { id } = await submittedMerchant(api, isv);
    // The submission's underwriting job runs and leaves the decision to the checks.
    await until(
      "the underwriting job",
      async () =>
        api.db
          .select({ status: jobs.status })
          .from(jobs)
          .where(and(eq(jobs.type, "underwriting"), sql`${jobs.payload}->>'merchant_id' = ${id}`)),
      (rows) => rows.length === 1 && rows[0]!.status === "done",
    );
    const waiting = await until(
      "the other checks",
      () => getMerchant(id),
      (m) => m.verification.every((c: any) => c.type === "sanctions" || c.status === "verified"),
    );
    expect(waiting.lead_onboarding_status).toBe("COMPLETED");
    expect(waiting.requirements.pending_verification).toEqual(["merchant.sanctions"]);
    expect(check(waiting, "sanctions").status).toBe("pending");
    release();
    const decided = await waitForStatus(api, isv, id, ["APPROVED", "IN_PROGRESS", "FAILED"]);
    expect(decided.lead_onboarding_status).toBe("APPROVED");
    expect(new Date(decided.updated_at).getTime()).toBeGreaterThanOrEqual(
      new Date(check(decided, "sanctions").updated_at).getTime(),
    );
  });

  test("identity 1902-01-01: asked for a document in place; a PNG is checked again and the merchant approved without a second submit", async () => {
    const { id } = await submittedMerchant(api, isv, (app) => (app.owner_one.date_of_birth = "1902-01-01"));
    const asked = await waitForStatus(api, isv, id, ["IN_PROGRESS", "APPROVED", "FAILED"]);
    expect(asked.lead_onboarding_status).toBe("IN_PROGRESS");
    expect(asked.requirements.currently_due).toEqual(["owner_one.verification.document"]);
    expect(asked.requirements.errors).toEqual([
      {
        field: "owner_one.verification.document",
        code: "identity_not_verified",
        message: expect.stringContaining("driver's license, passport or state ID"),
      },
    ]);
    expect(check(asked, "identity", "owner_one")).toMatchObject({
      status: "requires_document",
      code: "identity_not_verified",
    });
    expect(check(asked, "identity", "owner_two").status).toBe("verified");

    // The merchant's own session sends the photo.
    const session = await freshSession(id);
    const sent = await upload(
      id,
      { purpose: "identity_document", subject: "owner_one" },
      { bytes: await png(1), name: "licence.png" },
      session,
    );
    expect(sent.status).toBe(200);
    // The request is answered at once; the merchant (and its portal session) stay put while the check runs.
    const after = await getMerchant(id);
    expect(after.requirements.currently_due).toEqual([]);
    expect((await api.call("GET", "/v1/onboarding/session", { auth: session })).status).toBe(200);
    const approved = await waitForStatus(api, isv, id, ["APPROVED", "FAILED"]);
    expect(approved.lead_onboarding_status).toBe("APPROVED");
    expect(check(approved, "identity", "owner_one")).toMatchObject({
      status: "verified",
      document_file_id: sent.json.id,
    });
    // The data checks that had passed were not run again.
    const versions = (await api.db.execute(sql`select verification from merchants where id = ${id}`)).rows[0] as any;
    expect(versions.verification.map((c: any) => [c.type, c.subject, c.version])).toEqual([
      ["business", "merchant", 1],
      ["identity", "owner_one", 2],
      ["identity", "owner_two", 1],
      ["bank_account", "merchant", 1],
      ["sanctions", "merchant", 1],
    ]);
  });

  test("two different documents sent at once for one requested document: one attached, the other refused, one file stored", async () => {
    const { id } = await submittedMerchant(api, isv, (app) => (app.owner_one.date_of_birth = "1902-01-01"));
    const asked = await waitForStatus(api, isv, id, ["IN_PROGRESS", "APPROVED", "FAILED"]);
    expect(asked.requirements.currently_due).toEqual(["owner_one.verification.document"]);
    // Both pass the check made before the bytes are read; only the check under the merchant's lock
    // tells them apart.
    const sent = await Promise.all(
      [11, 12].map(async (seed) =>
        upload(id, { purpose: "identity_document", subject: "owner_one" }, { bytes: await png(seed), name: "id.png" }),
      ),
    );
    expect(sent.map((r) => r.status).sort()).toEqual([200, 409]);
    expect(sent.find((r) => r.status === 409)!.json.error.code).toBe("document_not_needed");
    const stored = await api.db
      .select({ id: files.id })
      .from(files)
      .where(and(eq(files.merchantId, id), eq(files.purpose, "identity_document")));
    expect(stored.map((f) => f.id)).toEqual([sent.find((r) => r.status === 200)!.json.id]);
    const approved = await waitForStatus(api, isv, id, ["APPROVED", "FAILED"]);
    expect(check(approved, "identity", "owner_one")).toMatchObject({
      status: "verified",
      document_file_id: stored[0]!.id,
    });
  });

  test("a document refused once is asked for again with the reason; refused twice, an operator decides", async () => {
    const { id } = await submittedMerchant(api, isv, (app) => (app.owner_two.date_of_birth = "1902-01-01"));
    await waitForStatus(api, isv, id, ["IN_PROGRESS", "APPROVED", "FAILED"]);
    const session = await freshSession(id);
    const first = await upload(
      id,
      { purpose: "identity_document", subject: "owner_two" },
      { bytes: await png(2), name: "unreadable.png" },
      session,
    );
    expect(first.status).toBe(200);
    const again = await until(
      "asked again",
      () => getMerchant(id),
      (m) =>
        m.lead_onboarding_status === "IN_PROGRESS" && check(m, "identity", "owner_two").status === "requires_document",
    );
    expect(again.requirements.errors).toEqual([
      {
        field: "owner_two.verification.document",
        code: "document_unreadable",
        message: expect.stringContaining("could not read"),
      },
    ]);
    // Asked again in place: the portal session the merchant uploaded from still works (no new link).
    const read = await api.call("GET", "/v1/onboarding/session", { auth: session });
    expect(read.status).toBe(200);
    expect(read.json.requirements.currently_due).toEqual(["owner_two.verification.document"]);
    const second = await upload(
      id,
      { purpose: "identity_document", subject: "owner_two" },
      { bytes: await png(3), name: "unreadable-2.png" },
    );
    expect(second.status).toBe(200);
    const review = await underReview(id);
    expect(review.underwriting.reason).toContain("refused twice");
    const m = await getMerchant(id);
    expect(m.lead_onboarding_status).toBe("COMPLETED");
    expect(check(m, "identity", "owner_two")).toMatchObject({ status: "failed", code: "document_refused" });

    // The operator sees why, each check and both documents (`npm run cli -- merchant show <id>`).
    const shown = await runCommand(api.handle, ["merchant", "show", id]);
    expect(shown.code).toBe(0);
    expect(shown.stdout).toContain("underwriting  manual_review: The document was refused twice");
    expect(shown.stdout).toMatch(/identity\s+owner_two\s+failed\s+document_refused\s+document file_/);
    expect(shown.stdout).toMatch(/identity\s+owner_one\s+verified/);
    expect(shown.stdout).toMatch(/identity_document\s+owner_two\s+png .* unreadable-2\.png/);
    const asJson = JSON.parse((await runCommand(api.handle, ["merchant", "show", id, "--json"])).stdout);
    expect(asJson.documents.map((f: any) => f.filename)).toEqual(["unreadable-2.png", "unreadable.png"]);
    expect(asJson.verification).toHaveLength(5);
    const missing = await runCommand(api.handle, ["merchant", "show", "mer_nope"]);
    expect([missing.code, missing.stderr]).toEqual([1, "Error: No such merchant: 'mer_nope'\n"]);
  });

  test("sanctions 1900-01-01: the check fails and the merchant goes to manual review with the reason", async () => {
    const { id } = await submittedMerchant(api, isv, (app) => (app.owner_two.date_of_birth = "1900-01-01"));
    const review = await underReview(id);
    expect(review.underwriting.reason).toMatch(/matches an entry on a sanctions screening list/);
    const m = await getMerchant(id);
    expect(m.lead_onboarding_status).toBe("COMPLETED");
    expect(check(m, "sanctions")).toMatchObject({ status: "failed", code: "sanctions_match" });
  });

  test("TIN 333333333 asks for a business document; bank account 000444444440 for a bank document; each answered", async () => {
    const { id } = await submittedMerchant(api, isv, (app) => {
      app.tin = "333333333";
      app.bank_account.account_number = "000444444440";
      app.bank_account.account_number_confirm = "000444444440";
    });
    const asked = await waitForStatus(api, isv, id, ["IN_PROGRESS", "APPROVED", "FAILED"]);
    expect(asked.requirements.currently_due.sort()).toEqual([
      "merchant.bank_account.verification.document",
      "merchant.verification.document",
    ]);
    expect(asked.requirements.errors.map((e: any) => e.code).sort()).toEqual([
      "bank_account_not_verified",
      "business_not_verified",
    ]);
    // One of two answered: still waiting for the other; no resubmission yet.
    expect((await upload(id, { purpose: "business_document" }, { bytes: pdf(1), name: "cp575.pdf" })).status).toBe(200);
    const half = await until(
      "business verified",
      () => getMerchant(id),
      (m) => check(m, "business").status === "verified",
    );
    expect(half.lead_onboarding_status).toBe("IN_PROGRESS");
    expect(half.requirements.currently_due).toEqual(["merchant.bank_account.verification.document"]);
    expect((await upload(id, { purpose: "bank_document" }, { bytes: pdf(2), name: "statement.pdf" })).status).toBe(200);
    const approved = await waitForStatus(api, isv, id, ["APPROVED", "FAILED"]);
    expect(approved.lead_onboarding_status).toBe("APPROVED");
  });

  test("changed inputs are checked again on the next submission; a document nobody asked for is refused and not stored", async () => {
    const { id } = await submittedMerchant(api, isv, (app) => (app.owner_one.date_of_birth = "1902-01-01"));
    await waitForStatus(api, isv, id, ["IN_PROGRESS", "APPROVED", "FAILED"]);
    const session = await freshSession(id);
    const count = async () => (await api.db.select().from(files).where(eq(files.merchantId, id))).length;
    // owner_two's identity is verified: no document for them.
    const unasked = await upload(
      id,
      { purpose: "identity_document", subject: "owner_two" },
      { bytes: await png(4), name: "id.png" },
    );
    expect([unasked.status, unasked.json.error.code, unasked.json.error.type]).toEqual([
      409,
      "document_not_needed",
      "conflict_error",
    ]);
    expect(unasked.json.error.message).toBe("No document is needed for owner_two: its identity check is verified");
    expect(await count()).toBe(0);
    // The merchant corrects the date of birth instead and submits again: the checks that read it
    // (identity, sanctions) run again, the others do not.
    const fixed = await api.call("PATCH", "/v1/onboarding/session", {
      auth: session,
      body: { merchant: { owner_one: { date_of_birth: "1981-04-12" } } },
    });
    expect(fixed.status).toBe(200);
    const signed = await api.call("POST", "/v1/onboarding/session/agreement", {
      auth: session,
      body: { name: "Mei Chen" },
    });
    expect([200, 409]).toContain(signed.status);
    const resubmitted = await api.call("POST", "/v1/onboarding/session/submit", { auth: session });
    expect(resubmitted.status, JSON.stringify(resubmitted.json)).toBe(200);
    const approved = await waitForStatus(api, isv, id, ["APPROVED", "IN_PROGRESS", "FAILED"]);
    expect(approved.lead_onboarding_status).toBe("APPROVED");
    const stored = (await api.db.execute(sql`select verification from merchants where id = ${id}`)).rows[0] as any;
    expect(stored.verification.map((c: any) => [c.type, c.subject, c.version, c.status])).toEqual([
      ["business", "merchant", 1, "verified"],
      ["identity", "owner_one", 2, "verified"],
      ["identity", "owner_two", 1, "verified"],
      ["bank_account", "merchant", 1, "verified"],
      ["sanctions", "merchant", 2, "verified"],
    ]);
    // No SSN, nor its plain digest, in what is stored about the checks.
    expect(JSON.stringify(stored.verification)).not.toMatch(/\d{9}/);
  });

  test("an older check's answer that comes after a newer version of the check was asked for is not recorded over it", async () => {
    // The business check of this merchant waits at the provider until released.
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let reached!: () => void;
    const atProvider = new Promise<void>((resolve) => (reached = resolve));
    const sandbox = sandboxProvider(0);
    setVerificationProvider({
      name: "slow business check",
      check: async (request) => {
        if (request.type === "business") {
          reached();
          await gate;
        }
        return sandbox.check(request);
      },
      checkDocument: (request) => sandbox.checkDocument(request),
    });
    const { id } = await submittedMerchant(api, isv);
    await atProvider;
    // Meanwhile the check is asked for again (a newer version, pending): as a resubmission would.
    await api.db.execute(sql`update merchants set verification = (
        select jsonb_agg(case when c->>'type' = 'business' then jsonb_set(c, '{version}', to_jsonb((c->>'version')::int + 1)) else c end)
        from jsonb_array_elements(verification) c) where id = ${id}`);
    release();
    // The old job ends (its job row done) without touching the newer version.
    await until(
      "the old business check's job to end",
      async () =>
        (
          await api.db.execute(
            sql`select count(*)::int as n from jobs where type = 'verification_check' and payload->>'merchant_id' = ${id} and payload->>'type' = 'business' and status in ('queued', 'running')`,
          )
        ).rows[0] as any,
      (row) => row.n === 0,
    );
    const m = (await api.db.execute(sql`select verification from merchants where id = ${id}`)).rows[0] as any;
    const business = m.verification.find((c: any) => c.type === "business");
    expect(business).toMatchObject({ version: 2, status: "pending" });
    // The merchant is not decided on an answer that was for the older version.
    expect((await getMerchant(id)).lead_onboarding_status).toBe("COMPLETED");
  });

  test("a provider that keeps failing: the check fails with the reason and an operator decides (nothing waits forever)", async () => {
    setVerificationProvider({
      name: "down",
      check: async () => {
        throw new Error("provider unreachable");
      },
      checkDocument: async () => {
        throw new Error("provider unreachable");
      },
    });
    const { id } = await submittedMerchant(api, isv);
    // Speed the retries up: every queued verification job of this merchant is due now, again and again.
    const review = await until(
      "manual review after the retries",
      async () => {
        await api.db.execute(
          sql`update jobs set run_at = now() where type = 'verification_check' and status = 'queued' and payload->>'merchant_id' = ${id}`,
        );
        return (await api.db.execute(sql`select underwriting from merchants where id = ${id}`)).rows[0] as any;
      },
      (row) => row?.underwriting?.outcome === "manual_review",
      30_000,
    );
    expect(review.underwriting.reason).toContain("provider unreachable");
    const m = await getMerchant(id);
    expect(check(m, "identity", "owner_one")).toMatchObject({ status: "failed", code: "verification_error" });
  }, 40_000);
});
