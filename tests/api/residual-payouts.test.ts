import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";

import { rowsOf } from "@/lib/db/client";
import { accounts, merchants } from "@/lib/db/schema";
import { rotateApiKey } from "@/lib/domain/accounts/rotate-api-key";
import { checkLedger } from "@/lib/ledger/check";

import { startTestApi, type TestApi } from "../helpers/api";
import { isvPostingsAt, lastMonth } from "../helpers/ledger";
import { approvedMerchant, payRequest } from "../helpers/payments";
import { signInWithCode } from "../helpers/sign-in";
import { until } from "../helpers/until";

// A positive residual is paid to the ISV's own bank account (docs/reference.md section 19): only
// once that account is verified; as a payout with `recipient: account` that moves like a merchant's;
// refused by the bank, the money is the ISV's again and a new verified account gets it.

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi({ worker: true });
}, 60_000);
afterAll(() => api.close());

type Isv = Awaited<ReturnType<TestApi["newIsv"]>>;
// A residual is made for a month that is over: the month's activity is moved into the last one.
const { period, at: inLastMonth } = lastMonth();
const get = (isv: Isv, path: string) => api.call("GET", path, { auth: isv.auth });
/** The payout bank account, changed as it may be: by a user signed in within 15 minutes (never an API key). */
const patchBank = async (isv: Isv, bank: Record<string, unknown>) => {
  const signIn = await signInWithCode(api, { email: isv.user_email, password: isv.password });
  expect(signIn.status, signIn.text).toBe(200);
  return api.call("PATCH", "/v1/account", {
    auth: `Bearer ${signIn.json.access_token}`,
    body: { payout_bank_account: bank },
  });
};
const bank = (account_number: string) => ({
  routing_number: "021000021",
  account_number,
  account_holder_name: "Residual Co",
  account_type: "checking",
  bank_name: "First Bank",
});
async function revenue(isv: Isv) {
  const [row] = rowsOf<{ total: string | number | null }>(
    await api.db.execute(
      sql`select sum(amount) as total from ledger_entries where account = 'revenue' and owner_id = ${isv.account_id}`,
    ),
  );
  return Number(row?.total ?? 0);
}
/** A new ISV whose month earned something: one payment with a platform fee, its residual made. */
async function isvWithResidual(name: string) {
  const isv = await api.newIsv(name);
  const merchant = await approvedMerchant(api, isv);
  expect((await payRequest(api, isv, merchant, 20_000, {}, { platform_fee: { amount: 400 } })).status).toBe(200);
  await isvPostingsAt(api.db, isv.account_id, inLastMonth);
  return { isv, merchant };
}
const generate = (isv: Isv) =>
  api.call("POST", "/v1/test_helpers/residuals/generate", { auth: isv.auth, body: { period } });
const bankStatus = async (isv: Isv) => (await get(isv, "/v1/account")).json.payout_bank_account?.status;
const accountPayouts = async (isv: Isv) => (await get(isv, "/v1/payouts?recipient=account")).json.data;
const advance = (isv: Isv, id: string) =>
  api.call("POST", `/v1/test_helpers/payouts/${id}/advance`, { auth: isv.auth });

describe("a residual paid to the ISV's bank account", () => {
  test("waits for a bank account; once it is verified the payout goes, is sent, is paid; the residual is paid", async () => {
    const { isv, merchant } = await isvWithResidual("Paid ISV");
    const residual = (await generate(isv)).json;
    expect(residual.amount).toBeGreaterThan(0);
    expect(residual).toMatchObject({ status: "pending", payout_id: null });
    expect(await accountPayouts(isv)).toEqual([]);

    // Bad input: 400 naming the field, nothing kept.
    const bad = await patchBank(isv, { ...bank("000123456789"), routing_number: "12" });
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.json)).toContain("payout_bank_account.routing_number");
    expect((await get(isv, "/v1/account")).json.payout_bank_account).toBeNull();

    const before = await revenue(isv);
    const set = await patchBank(isv, bank("000123456789"));
    expect(set.status).toBe(200);
    expect(set.json.payout_bank_account).toMatchObject({
      last4: "6789",
      status: "pending",
      routing_number: "021000021",
    });
    expect(JSON.stringify(set.json)).not.toContain("000123456789");
    // Encrypted at rest.
    const [row] = await api.db.select().from(accounts).where(eq(accounts.id, isv.account_id));
    expect(JSON.stringify(row!.payoutBankAccount)).not.toContain("000123456789");

    await until(
      () => bankStatus(isv),
      (s) => s === "verified",
      15_000,
      "the bank account verified",
    );
    const [payout] = await until(
      () => accountPayouts(isv),
      (p) => p.length === 1,
      15_000,
      "the residual's payout",
    );
    expect(payout).toMatchObject({
      recipient: "account",
      merchant_id: null,
      settlement_id: null,
      residual_id: residual.id,
      amount: residual.amount,
      bank_account: { last4: "6789", bank_name: "First Bank" },
    });
    expect((await get(isv, `/v1/residuals/${residual.id}`)).json.payout_id).toBe(payout.id);
    // The worker sends it; the sandbox's bank answers when asked.
    await until(
      async () => (await get(isv, `/v1/payouts/${payout.id}`)).json.status,
      (s) => s === "in_transit",
      15_000,
      "the payout sent",
    );
    // Sent: out of the ISV's revenue (a `payout` line dated when sent), and on its way the platform's
    // payout clearing holds it (every invariant holds while it travels).
    expect((await revenue(isv)) - before).toBe(-residual.amount);
    expect(await checkLedger(api.db)).toEqual([]);
    const paid = await advance(isv, payout.id);
    expect(paid.json.status).toBe("paid");
    expect((await get(isv, `/v1/residuals/${residual.id}`)).json.status).toBe("paid");
    expect((await advance(isv, payout.id)).status).toBe(409);
    expect(await checkLedger(api.db)).toEqual([]);

    // A merchant's own key never reads the ISV's payouts; another ISV gets 404.
    const [m] = await api.db.select().from(merchants).where(eq(merchants.id, merchant.id));
    const rotated = await rotateApiKey(api.db, m!.merchantAccountId!, false);
    const own = `Basic ${Buffer.from(`${rotated.account_sid}:${rotated.secret_key}`).toString("base64")}`;
    expect((await api.call("GET", "/v1/payouts?recipient=account", { auth: own })).status).toBe(403);
    expect((await api.call("GET", `/v1/payouts/${payout.id}`, { auth: own })).status).toBe(404);
    const stranger = await api.newIsv("Stranger ISV");
    expect((await get(stranger, `/v1/payouts/${payout.id}`)).status).toBe(404);
    expect(await accountPayouts(stranger)).toEqual([]);
    // The merchants' list is unchanged by it.
    expect(
      (await get(isv, "/v1/payouts")).json.data.every((p: { recipient: string }) => p.recipient === "merchant"),
    ).toBe(true);
  });

  test("a bank account the check does not confirm gets nothing, and says why", async () => {
    const { isv } = await isvWithResidual("Unconfirmed ISV");
    await generate(isv);
    expect((await patchBank(isv, bank("000444444440"))).status).toBe(200);
    const account = await until(
      async () => (await get(isv, "/v1/account")).json.payout_bank_account,
      (b) => b.status !== "pending",
      15_000,
      "the check's answer",
    );
    expect(account.status).toBe("unverified");
    expect(account.status_message).toMatch(/Give another bank account/);
    expect(await accountPayouts(isv)).toEqual([]);
  });

  test("refused by the bank: the money is the ISV's again; a new verified account is paid by a replacement", async () => {
    const { isv } = await isvWithResidual("Closed ISV");
    // The replacement account is paid at once (a change's hold is tests/api/isv-payout-account.test.ts's).
    await api.call("PATCH", "/v1/account", { auth: isv.auth, body: { settings: { new_bank_account_hold_days: 0 } } });
    const residual = (await generate(isv)).json;
    const start = await revenue(isv);
    await patchBank(isv, bank("000555555550"));
    const [first] = await until(
      () => accountPayouts(isv),
      (p) => p.length === 1,
      15_000,
      "the first payout",
    );
    await until(
      async () => (await get(isv, `/v1/payouts/${first.id}`)).json.status,
      (s) => s === "in_transit",
      15_000,
      "the payout sent",
    );
    const failed = (await advance(isv, first.id)).json;
    expect(failed).toMatchObject({ status: "failed", failure_code: "account_closed" });
    expect(await revenue(isv)).toBe(start);
    expect((await get(isv, `/v1/residuals/${residual.id}`)).json).toMatchObject({ status: "pending", payout_id: null });
    const refused = (await get(isv, "/v1/account")).json.payout_bank_account;
    expect(refused).toMatchObject({ status: "unverified" });
    expect(refused.status_message).toMatch(/refused a payout/);

    await patchBank(isv, bank("000987654321"));
    const payouts = await until(
      () => accountPayouts(isv),
      (p) => p.length === 2,
      15_000,
      "the replacement",
    );
    expect(payouts[0]).toMatchObject({ replaces: first.id, amount: residual.amount, bank_account: { last4: "4321" } });
    await until(
      async () => (await get(isv, `/v1/payouts/${payouts[0].id}`)).json.status,
      (s) => s === "in_transit",
      15_000,
      "the replacement sent",
    );
    expect((await advance(isv, payouts[0].id)).json.status).toBe("paid");
    expect((await get(isv, `/v1/residuals/${residual.id}`)).json).toMatchObject({
      status: "paid",
      payout_id: payouts[0].id,
    });
    expect(await revenue(isv)).toBe(start - residual.amount);
    expect(await checkLedger(api.db)).toEqual([]);
  });
});
