import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, expect, test } from "vitest";

import { charges, jobs } from "@/lib/db/schema";
import { checkAchReturns } from "@/lib/domain/settlements/ach-returns";
import { settleAll } from "@/lib/domain/settlements/run-settlement";

import { startTestApi, type TestApi } from "../helpers/api";
import { approvedMerchant, payRequest } from "../helpers/payments";

// ACH clearing (docs/reference.md section 13, issue 47): one settlement's return check clears only
// its own ACH debits; a later settlement's debits, whose banks may still return them, stay uncleared
// (not refundable) until their own check.

let api: TestApi;
let isv: Awaited<ReturnType<TestApi["newIsv"]>>;

beforeAll(async () => {
  api = await startTestApi({ worker: true });
  isv = await api.newIsv("ACH clearing ISV");
}, 120_000);
afterAll(() => api.close());

test("a settlement's return check clears its own debits, not a later settlement's", async () => {
  const merchant = await approvedMerchant(api, isv);
  const debit = async (amount: number) => {
    const res = await payRequest(api, isv, merchant, amount, { account: "000123456789" });
    expect(res.status).toBe(200);
    return res.json.charge.id as string;
  };
  const cleared = async (id: string) =>
    (await api.db.select().from(charges).where(eq(charges.id, id)))[0]!.achClearedAt !== null;
  // Each settlement's own check is put off: this test runs them.
  const putOff = (settlementId: string) =>
    api.db
      .update(jobs)
      .set({ runAt: new Date(Date.now() + 3_600_000) })
      .where(and(eq(jobs.type, "ach_returns"), sql`${jobs.payload}->>'settlement_id' = ${settlementId}`));
  const first = await debit(4_000);
  const [s1] = await settleAll(api.db, new Date(Date.now() + 1), { merchantId: merchant.id });
  await putOff(s1!.id);
  const second = await debit(6_000);
  const [s2] = await settleAll(api.db, new Date(Date.now() + 1), { merchantId: merchant.id });
  await putOff(s2!.id);
  expect([await cleared(first), await cleared(second)]).toEqual([false, false]);
  // Not cleared: the bank may still return it, so it cannot be refunded.
  const early = await api.call("POST", "/v1/refunds", { auth: isv.auth, body: { charge_id: second, amount: 100 } });
  expect(early.status).not.toBe(200);

  await checkAchReturns(api.db, { settlement_id: s1!.id });
  expect([await cleared(first), await cleared(second)]).toEqual([true, false]);
  expect(
    (await api.call("POST", "/v1/refunds", { auth: isv.auth, body: { charge_id: second, amount: 100 } })).status,
  ).not.toBe(200);
  await checkAchReturns(api.db, { settlement_id: s2!.id });
  expect([await cleared(first), await cleared(second)]).toEqual([true, true]);
  expect(
    (await api.call("POST", "/v1/refunds", { auth: isv.auth, body: { charge_id: second, amount: 100 } })).status,
  ).toBe(200);
}, 60_000);
