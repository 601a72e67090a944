import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";

import { runCommand } from "@/cli/commands";
import { asActor } from "@/lib/audit/actor";
import { auditLogs } from "@/lib/db/schema";
import { changeContact } from "@/lib/domain/home/settings";
import { purgeExpired } from "@/lib/domain/retention/purge";

import { startTestApi, type TestApi } from "../helpers/api";
import { freshHomeSession } from "../helpers/fixtures";
import { openLink } from "../helpers/onboarding";
import { approvedMerchant } from "../helpers/payments";
import { memberBearer } from "../helpers/sign-in";

// The audit log (docs/reference.md section 17): one entry per change, in the change's own
// transaction, with the right actor for each kind of caller; fields by name, never values; no code
// path changes or deletes an entry but the one-year purge.

let api: TestApi;
let isv: Awaited<ReturnType<TestApi["newIsv"]>>;
let other: Awaited<ReturnType<TestApi["newIsv"]>>;

beforeAll(async () => {
  api = await startTestApi({ worker: true });
  isv = await api.newIsv("Audit ISV");
  other = await api.newIsv("Other ISV");
}, 60_000);
afterAll(() => api.close());

const entriesOf = async (resourceId: string) =>
  (await api.call("GET", `/v1/audit_logs?resource_id=${resourceId}&limit=100`, { auth: isv.auth })).json.data as any[];

describe("audit log", () => {
  test("an API key's create and update: one entry each, the key's account as actor, the request's id and address, field names only", async () => {
    const created = await api.call("POST", "/v1/merchants", { auth: isv.auth, body: { phone: "+14155550123" } });
    const id = created.json.id as string;
    const updated = await api.call("PATCH", `/v1/merchants/${id}`, {
      auth: isv.auth,
      body: { merchant: { legal_business_name: "Secret Noodle Recipe LLC", bank_account: { bank_name: "Bay CU" } } },
    });
    expect(updated.status).toBe(200);
    const entries = await entriesOf(id);
    expect(entries.map((e) => e.action)).toEqual(["merchant.updated", "merchant.created"]);
    const [update, create] = entries;
    expect(update).toEqual({
      object: "audit_log",
      id: expect.stringMatching(/^al_/),
      // Which key: its secret's last four characters.
      actor: { type: "api_key", id: isv.account_id, via: isv.secret_key.slice(-4) },
      action: "merchant.updated",
      resource_id: id,
      fields: ["merchant.legal_business_name", "merchant.bank_account.bank_name"],
      request_id: updated.headers.get("request-id"),
      client_address: "127.0.0.1",
      created_at: expect.any(String),
    });
    expect(create).toMatchObject({
      actor: { type: "api_key", id: isv.account_id },
      request_id: created.headers.get("request-id"),
    });
    // The values changed are nowhere in the log.
    const stored = await api.db.select().from(auditLogs).where(eq(auditLogs.resourceId, id));
    expect(JSON.stringify(stored)).not.toContain("Secret Noodle");
    expect(JSON.stringify(stored)).not.toContain("Bay CU");
  });

  test("an ISV user (JWT), the merchant in the wizard and in its home, the operator CLI: each its own actor; the worker's changes none", async () => {
    const bearer = await memberBearer(api, { email: isv.user_email, password: isv.password });
    const patched = await api.call("PATCH", "/v1/account", {
      auth: bearer,
      body: { settings: { onboarding_link_ttl_seconds: 7200 } },
    });
    expect(patched.status).toBe(200);
    const [account] = await entriesOf(isv.account_id);
    expect(account).toMatchObject({
      actor: { type: "user", id: expect.stringMatching(/^usr_/) },
      action: "account.updated",
      fields: ["settings.onboarding_link_ttl_seconds"],
    });

    // The wizard: the merchant's own session.
    const merchant = (await api.call("POST", "/v1/merchants", { auth: isv.auth, body: { phone: "+14155550123" } }))
      .json;
    const link = (
      await api.call("POST", "/v1/onboarding_links", {
        auth: isv.auth,
        body: { merchant_id: merchant.id, type: "account_onboarding" },
      })
    ).json;
    const session = await openLink(api, link.url);
    const saved = await api.call("PATCH", "/v1/onboarding/session", {
      auth: session,
      body: { merchant: { doing_business_as: "Golden Gate Noodles" } },
    });
    expect(saved.status).toBe(200);
    const wizard = (await entriesOf(merchant.id)).find((e) => e.actor.type === "merchant");
    expect(wizard).toMatchObject({
      actor: { type: "merchant", id: merchant.id, via: "wizard" },
      action: "merchant.updated",
      fields: ["merchant.doing_business_as"],
    });
    expect((await entriesOf(merchant.id)).map((e) => e.action)).toContain("onboarding_link.created");

    // The home (its server actions run the domain as the merchant).
    const approved = await approvedMerchant(api, isv);
    await asActor({ type: "merchant", id: approved.id, via: "home", clientAddress: "198.51.100.4" }, () =>
      changeContact(api.db, approved.id, { name: "Ana Ruiz", email: "ana@example.com" }, freshHomeSession()),
    );
    const home = await entriesOf(approved.id);
    expect(home[0]).toMatchObject({
      actor: { type: "merchant", id: approved.id, via: "home" },
      action: "merchant.updated",
      fields: ["merchant.main_contact_person"],
      client_address: "198.51.100.4",
    });
    // Underwriting's approval ran in the worker, with no actor: not in the log.
    expect(home.map((e) => e.action)).not.toContain("merchant.approved");

    // The operator CLI.
    const result = await runCommand(api.handle, [
      "isv",
      "create",
      "--name",
      "CLI ISV",
      "--email",
      `cli-${Date.now()}@example.test`,
      "--password",
      "a-long-password-1",
      "--json",
    ]);
    expect(result.code).toBe(0);
    const made = JSON.parse(result.stdout);
    const [cli] = await api.db.select().from(auditLogs).where(eq(auditLogs.resourceId, made.account_id));
    expect(cli).toMatchObject({ actorType: "cli", action: "account.created", accountId: made.account_id });
    expect(cli!.actorId.length).toBeGreaterThan(0);
  });

  test("isolation and filters: another ISV sees none of it; by actor, by time; a merchant's own key may not read it", async () => {
    const mine = await api.call("GET", "/v1/audit_logs?limit=100", { auth: isv.auth });
    expect(mine.json.data.length).toBeGreaterThan(3);
    const theirs = await api.call("GET", "/v1/audit_logs?limit=100", { auth: other.auth });
    expect(theirs.json.data).toEqual([]);
    const byActor = await api.call("GET", `/v1/audit_logs?actor=${isv.account_id}&limit=100`, { auth: isv.auth });
    expect(byActor.json.data.length).toBeGreaterThan(0);
    expect(byActor.json.data.every((e: any) => e.actor.id === isv.account_id)).toBe(true);
    const future = await api.call("GET", `/v1/audit_logs?created[gte]=${Date.now() + 60_000}`, { auth: isv.auth });
    expect(future.json.data).toEqual([]);
    // Both bounds include their own instant, and only it: an entry's own millisecond, one either side.
    const newest = mine.json.data[0];
    const at = Date.parse(newest.created_at);
    const ids = async (query: string) =>
      ((await api.call("GET", `/v1/audit_logs?limit=100&${query}`, { auth: isv.auth })).json.data as any[]).map(
        (e) => e.id,
      );
    expect(await ids(`created[gte]=${at}`)).toContain(newest.id);
    expect(await ids(`created[gte]=${at + 1}`)).not.toContain(newest.id);
    expect(await ids(`created[lte]=${at}`)).toContain(newest.id);
    expect(await ids(`created[lte]=${at - 1}`)).not.toContain(newest.id);
    expect(await ids(`created[gte]=${at}&created[lte]=${at}`)).toContain(newest.id);
    const bad = await api.call("GET", "/v1/audit_logs?created[gte]=yesterday", { auth: isv.auth });
    expect([bad.status, bad.json.error.type]).toEqual([400, "invalid_request_error"]);
  });

  test("no path changes or deletes an entry: UPDATE and DELETE refused by the database; the purge removes only what is over a year old", async () => {
    const [entry] = await api.db.select().from(auditLogs).limit(1);
    const refused = async (statement: Promise<unknown>) => {
      try {
        await statement;
        return "accepted";
      } catch (error) {
        return String((error as { cause?: { message?: string } }).cause?.message ?? error);
      }
    };
    expect(
      await refused(api.db.update(auditLogs).set({ actorId: "someone-else" }).where(eq(auditLogs.id, entry!.id))),
    ).toMatch(/audit log entries cannot be changed or deleted/);
    expect(await refused(api.db.delete(auditLogs).where(eq(auditLogs.id, entry!.id)))).toMatch(
      /audit log entries cannot be changed or deleted/,
    );
    // The purge's own setting opens nothing younger than a year, to any session; TRUNCATE is refused too.
    expect(
      await refused(
        api.db.transaction(async (tx) => {
          await tx.execute(sql`set local app.audit_purge = 'on'`);
          await tx.delete(auditLogs).where(eq(auditLogs.id, entry!.id));
        }),
      ),
    ).toMatch(/audit log entries cannot be changed or deleted/);
    expect(await refused(api.db.execute(sql`truncate audit_logs`))).toMatch(
      /audit log entries cannot be changed or deleted/,
    );
    const [still] = await api.db.select().from(auditLogs).where(eq(auditLogs.id, entry!.id));
    expect(still).toEqual(entry);

    // Kept exactly one year (365 days): a minute past it goes, a minute short of it stays.
    const year = 365 * 24 * 3600_000;
    const aged = (id: string, ageMs: number) =>
      api.db.insert(auditLogs).values({
        id,
        accountId: isv.account_id,
        actorType: "cli",
        actorId: "operator",
        action: "account.updated",
        resourceId: isv.account_id,
        createdAt: new Date(Date.now() - ageMs),
      });
    await aged("al_oldoldoldoldoldoldold1", year + 60_000);
    await aged("al_almostayearoldentry01", year - 60_000);
    const counts = await purgeExpired(api.db);
    expect(counts.audit_logs).toBe(1);
    expect(await api.db.select().from(auditLogs).where(eq(auditLogs.id, "al_oldoldoldoldoldoldold1"))).toEqual([]);
    expect(await api.db.select().from(auditLogs).where(eq(auditLogs.id, "al_almostayearoldentry01"))).toHaveLength(1);
    expect(await api.db.select().from(auditLogs).where(eq(auditLogs.id, entry!.id))).toHaveLength(1);
  });
});
