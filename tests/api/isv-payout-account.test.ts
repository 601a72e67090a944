import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";

import { runCommand } from "@/cli/commands";
import { signUserToken } from "@/lib/auth/jwt";
import { hashPassword } from "@/lib/auth/secrets";
import { accounts, auditLogs, jobs, outbox, payouts, users } from "@/lib/db/schema";
import { readAccountReport, reportAccountChange } from "@/lib/domain/accounts/payout-account-change";
import { payoutSettingsOf } from "@/lib/domain/payouts/settings";
import { payWaitingResiduals } from "@/lib/domain/residuals/account-payouts";
import { createId } from "@/lib/ids";
import { keyedJobId } from "@/lib/jobs/queue";
import { checkLedger } from "@/lib/ledger/check";
import { businessDaysAfter } from "@/lib/payouts/business-days";

import { startTestApi, type TestApi } from "../helpers/api";
import { isvPostingsAt, lastMonth } from "../helpers/ledger";
import { approvedMerchant, payRequest } from "../helpers/payments";
import { until } from "../helpers/until";

// Who may change an ISV's own payout bank account and what happens then (docs/reference.md section
// 19): never an API key; a dashboard user within 15 minutes of signing in; every user e-mailed a
// single-use "this wasn't us" link that freezes the payouts until the operator's release (which ends
// the other links); a change of an account already given holds residuals for the setting's business
// days; each payout keeps the account it was made for (encrypted) and is settled against it.

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi({ worker: true });
}, 60_000);
afterAll(() => api.close());

type Isv = Awaited<ReturnType<TestApi["newIsv"]>>;
// A residual is made for a month that is over: the month's activity is moved into the last one.
const { period, at: inLastMonth } = lastMonth();
const bank = (account_number: string) => ({
  routing_number: "021000021",
  account_number,
  account_holder_name: "Guarded Co",
  account_type: "checking",
  bank_name: "First Bank",
});
const userOf = async (isv: Isv) =>
  (
    await api.db
      .select()
      .from(users)
      .where(and(eq(users.accountId, isv.account_id), eq(users.email, isv.user_email)))
  )[0]!;
/** A Bearer token of the ISV's user, signed in `minutesAgo` minutes ago. */
const signedIn = async (isv: Isv, minutesAgo = 0) =>
  `Bearer ${await signUserToken({ sub: (await userOf(isv)).id, account_id: isv.account_id }, 3600, Math.floor(Date.now() / 1000) - minutesAgo * 60)}`;
const patchBank = (auth: string, account_number: string) =>
  api.call("PATCH", "/v1/account", { auth, body: { payout_bank_account: bank(account_number) } });
const accountRow = async (isv: Isv) =>
  (await api.db.select().from(accounts).where(eq(accounts.id, isv.account_id)))[0]!;
const notices = async (to: string) =>
  (await api.db.select().from(outbox).where(eq(outbox.to, to))).filter(
    (m) => m.kind === "account_bank_account_changed",
  );
const reportToken = (text: string) => text.match(/\/sign-in\/report\/([0-9A-Za-z]{43})/)![1]!;
const accountPayoutsOf = async (isv: Isv) =>
  (await api.call("GET", "/v1/payouts?recipient=account", { auth: isv.auth })).json.data as {
    id: string;
    status: string;
    amount: number;
  }[];
/** A new ISV whose month earned something (one payment with a platform fee). */
async function isvWithEarnings(name: string) {
  const isv = await api.newIsv(name);
  const merchant = await approvedMerchant(api, isv);
  expect((await payRequest(api, isv, merchant, 20_000, {}, { platform_fee: { amount: 400 } })).status).toBe(200);
  await isvPostingsAt(api.db, isv.account_id, inLastMonth);
  return isv;
}
async function generateResidual(isv: Isv) {
  const made = await api.call("POST", "/v1/test_helpers/residuals/generate", { auth: isv.auth, body: { period } });
  expect(made.json.amount).toBeGreaterThan(0);
  return made.json as { id: string; amount: number };
}
async function isvWithResidual(name: string) {
  const isv = await isvWithEarnings(name);
  return { isv, residual: await generateResidual(isv) };
}
const verified = (isv: Isv) =>
  until(
    async () => (await api.call("GET", "/v1/account", { auth: isv.auth })).json.payout_bank_account?.status,
    (s) => s === "verified",
    15_000,
    "the bank account verified",
  );

describe("who may change the ISV's payout bank account", () => {
  test("an API key never (403 permission_denied); a sign-in older than 15 minutes must sign in again; nothing is written by a refusal", async () => {
    const isv = await api.newIsv("Guarded ISV");
    const before = await accountRow(isv);
    const byKey = await patchBank(isv.auth, "000123456789");
    expect(byKey.status).toBe(403);
    expect(byKey.json.error).toMatchObject({ code: "permission_denied", param: "payout_bank_account" });
    // The rest of the same request is not saved either.
    const mixed = await api.call("PATCH", "/v1/account", {
      auth: isv.auth,
      body: { defaults: { primary_color: "#123456" }, payout_bank_account: bank("000123456789") },
    });
    expect(mixed.status).toBe(403);
    const stale = await patchBank(await signedIn(isv, 16), "000123456789");
    expect(stale.status).toBe(403);
    expect(stale.json.error.code).toBe("reauthentication_required");
    const after = await accountRow(isv);
    expect(after.payoutBankAccount).toBeNull();
    expect(after.defaults).toEqual(before.defaults);
    expect(await notices(isv.user_email)).toHaveLength(0);
    // An API key still changes everything else.
    expect(
      (await api.call("PATCH", "/v1/account", { auth: isv.auth, body: { defaults: { primary_color: "#123456" } } }))
        .status,
    ).toBe(200);

    const fresh = await patchBank(await signedIn(isv, 14), "000123456789");
    expect(fresh.status, fresh.text).toBe(200);
    expect(fresh.json.payout_bank_account).toMatchObject({ last4: "6789", status: "pending", held_until: null });
    expect(fresh.json.payouts_frozen_at).toBeNull();
  });
});

describe("a change of the payout bank account", () => {
  test("every user is e-mailed a single-use link that freezes the payouts; the operator's release ends the others and pays", async () => {
    const isv = await isvWithEarnings("Reported ISV");
    // A second member of the team.
    const colleague = `colleague-${createId("evt").slice(4, 14).toLowerCase()}@example.test`;
    await api.db.insert(users).values({
      id: createId("usr"),
      accountId: isv.account_id,
      email: colleague,
      passwordHash: await hashPassword("a colleague's password"),
    });
    expect((await patchBank(await signedIn(isv), "000123456789")).status).toBe(200);
    const [mine] = await notices(isv.user_email);
    const [theirs] = await notices(colleague);
    expect(mine!.text).toContain("6789");
    expect(mine!.text).toContain(isv.user_email);
    const audit = await api.db
      .select()
      .from(auditLogs)
      .where(and(eq(auditLogs.accountId, isv.account_id), eq(auditLogs.action, "account.payout_bank_account_changed")));
    expect(audit.map((a) => a.fields)).toEqual([["payout_bank_account.last4:6789"]]);

    // Reported: the account verified and a residual made after, no payout is made while frozen.
    expect(await reportAccountChange(api.db, reportToken(mine!.text))).not.toBeNull();
    const frozenAt = (await payoutSettingsOf(api.db, isv.account_id)).frozenAt;
    expect(frozenAt).toBeInstanceOf(Date);
    // Single use.
    expect(await reportAccountChange(api.db, reportToken(mine!.text))).toBeNull();
    await verified(isv);
    const residual = await generateResidual(isv);
    expect(await accountPayoutsOf(isv)).toEqual([]);
    expect((await api.call("GET", "/v1/account", { auth: isv.auth })).json.payouts_frozen_at).toEqual(
      frozenAt!.toISOString(),
    );

    // The operator releases: the colleague's link ends (it cannot freeze again), the residual is paid.
    const released = await runCommand(api.handle, ["isv", "payouts", "release", isv.account_id, "--json"]);
    expect(released.code, released.stderr).toBe(0);
    expect(JSON.parse(released.stdout)).toEqual({ account_id: isv.account_id, released: true });
    expect(await readAccountReport(api.db, reportToken(theirs!.text))).toBeNull();
    expect(await reportAccountChange(api.db, reportToken(theirs!.text))).toBeNull();
    expect((await payoutSettingsOf(api.db, isv.account_id)).frozenAt).toBeNull();
    const [payout] = await until(
      () => accountPayoutsOf(isv),
      (p) => p.length === 1 && p[0]!.status === "in_transit",
      15_000,
      "the payout sent after the release",
    );
    expect(payout).toMatchObject({ amount: residual.amount });
  });

  test("a change of an account already given holds residuals for the setting's business days, then pays them", async () => {
    const { isv, residual } = await isvWithResidual("Held ISV");
    await api.call("PATCH", "/v1/account", { auth: isv.auth, body: { settings: { new_bank_account_hold_days: 3 } } });
    // The first account: no hold. Refused by the bank so the residual waits again.
    expect((await patchBank(await signedIn(isv), "000555555550")).json.payout_bank_account.held_until).toBeNull();
    const [first] = await until(
      () => accountPayoutsOf(isv),
      (p) => p.length === 1 && p[0]!.status === "in_transit",
      15_000,
      "the first payout sent",
    );
    expect(
      (await api.call("POST", `/v1/test_helpers/payouts/${first!.id}/advance`, { auth: isv.auth })).json.status,
    ).toBe("failed");

    const changedAt = new Date();
    const changed = await patchBank(await signedIn(isv), "000987654321");
    const holdUntil = businessDaysAfter(changedAt, 3).toISOString();
    expect(changed.json.payout_bank_account).toMatchObject({ last4: "4321", held_until: holdUntil });
    await verified(isv);
    // Verified, but in its hold: nothing paid; the payment is scheduled for the hold's end.
    expect(await accountPayoutsOf(isv)).toHaveLength(1);
    const [scheduled] = await api.db
      .select()
      .from(jobs)
      .where(eq(jobs.id, keyedJobId(`account_residuals_pay_${isv.account_id}_${holdUntil}`)));
    expect(scheduled?.runAt.toISOString()).toBe(holdUntil);

    // The hold over (the clock moved past it): the replacement goes.
    const made = await api.db.transaction((tx) =>
      payWaitingResiduals(tx, isv.account_id, new Date(Date.parse(holdUntil) + 1)),
    );
    expect(made).toHaveLength(1);
    expect(made[0]).toMatchObject({ amount: residual.amount, replaces: first!.id, bankLast4: "4321" });
  });

  test("a payout is settled against the account it was made for, kept encrypted, whatever the ISV gives after", async () => {
    const { isv, residual } = await isvWithResidual("Destination ISV");
    await api.call("PATCH", "/v1/account", { auth: isv.auth, body: { settings: { new_bank_account_hold_days: 0 } } });
    expect((await patchBank(await signedIn(isv), "000123456789")).status).toBe(200);
    const [payout] = await until(
      () => accountPayoutsOf(isv),
      (p) => p.length === 1 && p[0]!.status === "in_transit",
      15_000,
      "the payout sent",
    );
    const [row] = await api.db.select().from(payouts).where(eq(payouts.id, payout!.id));
    expect(row!.destination).toMatchObject({ routing_number: "021000021", last4: "6789" });
    expect(JSON.stringify(row!.destination)).not.toContain("000123456789");

    // While it is on its way, the ISV gives an account the bank refuses: the payout still lands on the first.
    expect((await patchBank(await signedIn(isv), "000555555550")).status).toBe(200);
    const settled = await api.call("POST", `/v1/test_helpers/payouts/${payout!.id}/advance`, { auth: isv.auth });
    expect(settled.json).toMatchObject({ status: "paid", amount: residual.amount, bank_account: { last4: "6789" } });
    expect((await api.call("GET", "/v1/account", { auth: isv.auth })).json.payout_bank_account.last4).toBe("5550");
    expect(await checkLedger(api.db)).toEqual([]);
  });
});
