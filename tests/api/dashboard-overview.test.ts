import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";

import { charges, merchants, payouts } from "@/lib/db/schema";
import { type DashboardOverview, dashboardOverview, periodStarts } from "@/lib/domain/dashboard/overview";
import { listMerchants } from "@/lib/domain/merchants/list-merchants";
import { createId } from "@/lib/ids";

import { startTestApi, type TestApi } from "../helpers/api";
import { application } from "../helpers/fixtures";
import { postingsAt } from "../helpers/ledger";
import { submittedMerchant, waitForStatus } from "../helpers/onboarding";
import { approvedMerchant, payRequest } from "../helpers/payments";
import { until } from "../helpers/until";

// The ISV dashboard's overview (docs/reference.md section 23) over real objects made through the
// API: each figure exact, each period's edge (a row a millisecond before a period's start is not in
// it), the attention list, and another ISV's objects never counted.

let api: TestApi;
let isv: Awaited<ReturnType<TestApi["newIsv"]>>;
let other: Awaited<ReturnType<TestApi["newIsv"]>>;
const post = (path: string, body?: unknown) => api.call("POST", path, { auth: isv.auth, body });

beforeAll(async () => {
  api = await startTestApi({ worker: true });
  isv = await api.newIsv("Overview ISV");
  other = await api.newIsv("Another ISV");
});
afterAll(() => api?.close());

describe("the dashboard's overview", () => {
  test("figures by period, exact at their edges; the funnel; the attention list; nothing of another ISV", async () => {
    const now = new Date();
    const starts = periodStarts(now);
    // Another ISV's approved merchant and payment: never in this ISV's figures.
    const stranger = await approvedMerchant(api, other);
    await payRequest(api, other, stranger, 99_900);

    const shop = await approvedMerchant(api, isv);
    const paid = [await payRequest(api, isv, shop, 10_000), await payRequest(api, isv, shop, 2_550)];
    const declined = await payRequest(api, isv, shop, 700, { card: "4000000000000002" });
    expect(declined.json.outcome).toBe("declined");
    const refund = await post("/v1/refunds", { charge_id: paid[0]!.json.charge.id, amount: 1_000 });
    expect(refund.status).toBe(200);

    // A disputed charge (the sandbox's card), once settled; and a payout the bank refuses.
    const disputed = await payRequest(api, isv, shop, 3_000, { card: "4000000000000259" });
    await post("/v1/test_helpers/settlement/run", { merchant_id: shop.id });
    const dispute = await until(
      async () => (await api.call("GET", `/v1/charges/${disputed.json.charge.id}`, { auth: isv.auth })).json,
      (c) => Boolean(c.dispute_id),
      20_000,
      "the dispute",
    );
    const closing = await approvedMerchant(api, isv, (application) => {
      application.bank_account.account_number = "000555555550";
      application.bank_account.account_number_confirm = "000555555550";
    });
    await payRequest(api, isv, closing, 5_000);
    await post("/v1/test_helpers/settlement/run", { merchant_id: closing.id });
    const [payout] = (await api.call("GET", `/v1/payouts?merchant_id=${closing.id}`, { auth: isv.auth })).json.data;
    await until(
      async () => (await api.call("GET", `/v1/payouts/${payout.id}`, { auth: isv.auth })).json.status,
      (s) => s === "in_transit",
      20_000,
      "the payout to be sent",
    );
    expect((await post(`/v1/test_helpers/payouts/${payout.id}/advance`)).json.status).toBe("failed");

    // A merchant underwriting asks for more (the sandbox's TIN), and one that never submitted.
    const asked = await submittedMerchant(api, isv, (application) => {
      application.tin = "111111111";
    });
    await waitForStatus(api, isv, asked.id, ["IN_PROGRESS"]);
    const idle = (await post("/v1/merchants", { phone: "+14155550177" })).json;

    // Moved in time: a payment a millisecond before the earlier of this month's and this week's
    // starts (in no period: on a day like 1 December 2026 the week began in the previous month), and
    // one a millisecond after this week began (in the week and, when the week began this month, the month).
    const noPeriod = Math.min(starts.month.getTime(), starts.week.getTime()) - 1;
    const [early, weekly] = [await payRequest(api, isv, shop, 40_000), await payRequest(api, isv, shop, 800)];
    await api.db
      .update(charges)
      .set({ createdAt: new Date(noPeriod) })
      .where(eq(charges.id, early.json.charge.id));
    await api.db
      .update(charges)
      .set({ createdAt: new Date(starts.week.getTime() + 1) })
      .where(eq(charges.id, weekly.json.charge.id));
    // The overview reads the ledger: the charges' postings move with them.
    await postingsAt(api.db, [early.json.charge.id], ["charge"], new Date(noPeriod));
    await postingsAt(api.db, [weekly.json.charge.id], ["charge"], new Date(starts.week.getTime() + 1));
    const weeklyToday = starts.week.getTime() === starts.today.getTime();
    const weekInMonth = starts.week.getTime() >= starts.month.getTime();

    const overview = await dashboardOverview(api.db, isv.account_id, now);
    // Today: everything made now, the week's payment only when the week began today.
    const todayVolume = 10_000 + 2_550 + 3_000 + 5_000 + (weeklyToday ? 800 : 0);
    expect(overview.today).toMatchObject({
      volume: todayVolume,
      payments: weeklyToday ? 5 : 4,
      refunds: 1_000,
      refundCount: 1,
      disputes: 1,
      newMerchants: 4,
      submitted: 3,
      approved: 2,
      linksOpened: 3,
    });
    expect(overview.week).toMatchObject({ volume: 10_000 + 2_550 + 3_000 + 5_000 + 800, payments: 5 });
    expect(overview.month).toMatchObject({
      volume: 10_000 + 2_550 + 3_000 + 5_000 + (weekInMonth ? 800 : 0),
      payments: weekInMonth ? 5 : 4,
      newMerchants: 4,
      approved: 2,
    });
    // The chart: 30 days, the last today; the early payment's day when it is among them.
    expect(overview.days).toHaveLength(30);
    expect(overview.days.at(-1)!.day).toBe(now.toISOString().slice(0, 10));
    expect(overview.days.reduce((s, d) => s + d.volume, 0)).toBe(
      10_000 + 2_550 + 3_000 + 5_000 + 800 + (noPeriod >= Date.parse(overview.days[0]!.day) ? 40_000 : 0),
    );
    expect(overview.medianApprovalSeconds).toBeGreaterThanOrEqual(0);
    expect(overview.medianApprovalSeconds).toBeLessThan(600);

    expect(overview.attention.waiting).toMatchObject({ count: 1, items: [{ id: asked.id }] });
    expect(overview.attention.disputesDue).toMatchObject({
      count: 1,
      items: [{ id: dispute.dispute_id, merchantId: shop.id, amount: 3_000 }],
    });
    expect(overview.attention.failedPayouts).toMatchObject({
      count: 1,
      items: [{ id: payout.id, merchantId: closing.id, amount: payout.amount }],
    });
    expect(overview.attention.waiting.items.map((m) => m.id)).not.toContain(idle.id);
    // Once a payout replaces it (the merchant gave a new account), the failed one needs nothing more:
    // out of the list (in a transaction rolled back, so the figures above stay this test's).
    const replaced = await api.db
      .transaction(async (tx) => {
        await tx.insert(payouts).values({
          id: createId("po"),
          isvAccountId: isv.account_id,
          merchantId: closing.id,
          settlementId: payout.settlement_id,
          replaces: payout.id,
          amount: payout.amount,
          status: "pending",
        });
        throw Object.assign(new Error("roll back"), {
          found: (await dashboardOverview(tx, isv.account_id, now)).attention,
        });
      })
      .catch((e: { found?: DashboardOverview["attention"] }) => {
        if (!e.found) throw e;
        return e.found;
      });
    expect(replaced.failedPayouts).toEqual({ count: 0, items: [] });

    // Another ISV: its own figures only.
    const theirs = await dashboardOverview(api.db, other.account_id, now);
    expect(theirs.today).toMatchObject({ volume: 99_900, payments: 1, newMerchants: 1, approved: 1, refunds: 0 });
    expect(theirs.attention.waiting.count + theirs.attention.disputesDue.count).toBe(0);
  }, 120_000);

  test("a merchant's approval time is kept when it is approved, and the old ones were filled from their decisions", async () => {
    const shop = await approvedMerchant(api, isv);
    const [row] = await api.db.select().from(merchants).where(eq(merchants.id, shop.id));
    expect(row!.approvedAt).toBeInstanceOf(Date);
    expect(row!.approvedAt!.toISOString()).toBe((row!.underwriting as { decided_at: string }).decided_at);
    // Every approved merchant has one; no other has.
    const [wrong] = await api.db
      .select({ count: sql<number>`count(*)::int` })
      .from(merchants)
      .where(sql`(${merchants.status} = 'APPROVED') <> (${merchants.approvedAt} is not null)`);
    expect(wrong!.count).toBe(0);
  });

  test("the merchant list's search: a name, an owner's e-mail, the id exactly, a phone's digits; this ISV's only", async () => {
    const app = application();
    app.legal_business_name = "Searchable Salon LLC";
    app.doing_business_as = "Searchable Salon";
    app.owner_two.email = "Partner.Two@Salon.example";
    const made = (await post("/v1/merchants", { phone: "+14155550188", merchant: app })).json;
    const theirs = (
      await api.call("POST", "/v1/merchants", {
        auth: other.auth,
        body: { phone: "+14155550188", merchant: app },
      })
    ).json;
    const found = async (search: string) =>
      (await listMerchants(api.db, isv.account_id, { limit: 100, search })).rows.map((m) => m.id);
    for (const search of ["searchable", "partner.two@salon", "PARTNER.TWO@SALON.EXAMPLE", made.id, "555 0188"])
      expect(await found(search), search).toEqual([made.id]);
    // Not another ISV's, not a prefix of an id, not an e-mail's part without its @.
    expect(await found(theirs.id)).toEqual([]);
    expect(await found(made.id.slice(0, 10))).toEqual([]);
    expect(await found("salon.example")).toEqual([]);
  });
});
