import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";

import { payouts, residuals } from "@/lib/db/schema";
import { setPayoutSettings } from "@/lib/domain/payouts/settings";
import { payWaitingResiduals } from "@/lib/domain/residuals/account-payouts";
import { shareOf } from "@/lib/domain/residuals/figures";
import { generateResidual, merchantMonths } from "@/lib/domain/residuals/generate-residual";
import { checkLedger } from "@/lib/ledger/check";
import { pending, platform } from "@/lib/ledger/entry-helpers";
import { post } from "@/lib/ledger/post";

import { startTestApi, type TestApi } from "../helpers/api";
import { approvedMerchant } from "../helpers/payments";
import { signInWithCode } from "../helpers/sign-in";
import { until } from "../helpers/until";

// Three months of residuals on fixed dates (docs/reference.md section 19, issue 72): a month at a
// loss, carried into the month just after it and only into that one; a posting at a month's first
// instant counts in that month alone, one at its last millisecond in the month before; the month-end
// fees (posted by the bill in the month after the one they charge for) count in the merchant's fees
// and the margin of the month they are posted in. Every figure worked by hand below; the revenue
// share is the default profile's 80 %.

let api: TestApi;
let isv: Awaited<ReturnType<TestApi["newIsv"]>>;
let merchant: Awaited<ReturnType<typeof approvedMerchant>>;
const now = new Date("2026-12-02T12:00:00.000Z");

beforeAll(async () => {
  api = await startTestApi({ worker: true });
  isv = await api.newIsv("Three months ISV");
  merchant = await approvedMerchant(api, isv);
}, 120_000);
afterAll(() => api.close());

/** A card charge of `amount` with its fee, and what it cost the platform, at `iso`. */
async function charge(iso: string, amount: number, fee: number, cost: number) {
  const createdAt = new Date(iso);
  const sourceId = `ch_months_${iso}`;
  await post(api.db, {
    isvAccountId: isv.account_id,
    merchantId: merchant.id,
    type: "charge",
    sourceId,
    amount,
    fee,
    description: "a payment",
    createdAt,
    entries: [
      platform("card_clearing", -amount),
      pending(merchant.id, amount - fee),
      platform("processing_revenue", fee),
    ],
  });
  if (cost > 0)
    await post(api.db, {
      isvAccountId: isv.account_id,
      merchantId: merchant.id,
      type: "cost",
      sourceId,
      amount: 0,
      description: "its costs",
      createdAt,
      entries: [platform("processing_revenue", -cost), platform("processing_costs", cost)],
    });
}
/** A month-end fee of `amount`, posted at `iso` (a bill for the month before). */
const monthEndFee = (iso: string, amount: number) =>
  post(api.db, {
    isvAccountId: isv.account_id,
    merchantId: merchant.id,
    type: "monthly_fee",
    sourceId: `stmt_months_${iso}`,
    amount: -amount,
    description: "ACH monthly fee",
    createdAt: new Date(iso),
    entries: [pending(merchant.id, -amount), platform("processing_revenue", amount)],
  });

describe("three months of residuals", () => {
  test("a loss carried once, into the month just after; the months' edges; month-end fees in the fees", async () => {
    // June: 150 of fees, 400 of costs: a margin of −250, a share of −200, carried.
    await charge("2026-06-10T12:00:00.000Z", 10_000, 100, 400);
    await charge("2026-06-30T23:59:59.999Z", 1_000, 50, 0);
    // July: the first instant's charge, and June's month-end fee posted on the 1st.
    await charge("2026-07-01T00:00:00.000Z", 20_000, 600, 100);
    await monthEndFee("2026-07-01T01:00:00.000Z", 250);
    // August: a small month.
    await charge("2026-08-31T23:59:59.999Z", 5_000, 150, 50);

    const months = async (period: string) =>
      (await merchantMonths(api.db, isv.account_id, period)).map(({ merchantId: _, ...m }) => m);
    expect(await months("2026-06")).toEqual([
      { volume: 11_000, count: 2, merchantFees: 150, costs: 400, platformFees: 0 },
    ]);
    expect(await months("2026-07")).toEqual([
      { volume: 20_000, count: 1, merchantFees: 600 + 250, costs: 100, platformFees: 0 },
    ]);
    expect(await months("2026-08")).toEqual([
      { volume: 5_000, count: 1, merchantFees: 150, costs: 50, platformFees: 0 },
    ]);

    const june = (await generateResidual(api.db, isv.account_id, "2026-06", now)).row;
    expect(june).toMatchObject({
      margin: -250,
      share: shareOf(-250, 80),
      carriedIn: 0,
      amount: -200,
      status: "carried",
    });
    const july = (await generateResidual(api.db, isv.account_id, "2026-07", now)).row;
    // (600 + 250 − 100) × 80 % = 600, less June's 200.
    expect(july).toMatchObject({ margin: 750, share: 600, carriedIn: -200, amount: 400, status: "pending" });
    const august = (await generateResidual(api.db, isv.account_id, "2026-08", now)).row;
    // June's loss was carried once: August carries nothing in.
    expect(august).toMatchObject({ margin: 100, share: 80, carriedIn: 0, amount: 80, status: "pending" });
    expect(await checkLedger(api.db, merchant.id)).toEqual([]);
  });

  test("two callers paying the waiting residuals at once pay each once; one on its way is not paid again by the next", async () => {
    // The ISV's own bank account, verified; its payouts frozen meanwhile, so the residuals wait.
    const owner = { id: isv.account_id, recipient: "account" as const };
    await setPayoutSettings(api.db, owner, { frozenAt: now });
    const signIn = await signInWithCode(api, { email: isv.user_email, password: isv.password });
    const set = await api.call("PATCH", "/v1/account", {
      auth: `Bearer ${signIn.json.access_token}`,
      body: {
        payout_bank_account: {
          routing_number: "021000021",
          account_number: "000123456789",
          account_holder_name: "Three Months Co",
          account_type: "checking",
          bank_name: "First Bank",
        },
      },
    });
    expect(set.status, set.text).toBe(200);
    await until(
      async () => (await api.call("GET", "/v1/account", { auth: isv.auth })).json.payout_bank_account?.status,
      (status) => status === "verified",
      15_000,
      "the ISV's bank account verified",
    );
    const paidFor = async () =>
      (
        await api.db
          .select({ residualId: payouts.residualId })
          .from(payouts)
          .where(and(eq(payouts.isvAccountId, isv.account_id), eq(payouts.recipient, "account")))
      ).map((p) => p.residualId);
    expect(await paidFor()).toEqual([]);

    // Released: two callers at once (the job and a residual made at that moment) pay each residual once.
    await setPayoutSettings(api.db, owner, { frozenAt: null });
    await Promise.all([
      api.db.transaction((tx) => payWaitingResiduals(tx, isv.account_id, now)),
      api.db.transaction((tx) => payWaitingResiduals(tx, isv.account_id, now)),
    ]);
    const byPeriod = async (period: string) =>
      (
        await api.db
          .select()
          .from(residuals)
          .where(and(eq(residuals.isvAccountId, isv.account_id), eq(residuals.period, period)))
      )[0]!;
    const [july, august] = [await byPeriod("2026-07"), await byPeriod("2026-08")];
    expect((await paidFor()).sort()).toEqual([july.id, august.id].sort());

    // September's residual: paid on its own; July's and August's, on their way, are not paid again.
    await charge("2026-09-15T12:00:00.000Z", 10_000, 300, 100);
    const september = (await generateResidual(api.db, isv.account_id, "2026-09", now)).row;
    expect(september).toMatchObject({ margin: 200, amount: 160 });
    expect((await paidFor()).sort()).toEqual([july.id, august.id, september.id].sort());
  });
});
