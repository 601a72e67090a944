import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";

import { rowsOf } from "@/lib/db/client";
import { charges, events, merchants, reports } from "@/lib/db/schema";
import { rotateApiKey } from "@/lib/domain/accounts/rotate-api-key";
import { shareOf } from "@/lib/domain/residuals/figures";
import { checkLedger } from "@/lib/ledger/check";

import { startTestApi, type TestApi } from "../helpers/api";
import { isvPostingsAt, postingsAt } from "../helpers/ledger";
import { approvedMerchant, payRequest } from "../helpers/payments";
import { pdfText, pdfToPngs } from "../helpers/pdf";

// Residuals (docs/reference.md section 19): what the ISV earned in a month, one per month with a
// line per merchant; a loss carried into the next month; lines that add up to the residual; the
// ISV's share posted to its revenue in the ledger; downloads; the ISV's eyes only.

let api: TestApi;
let isv: Awaited<ReturnType<TestApi["newIsv"]>>;
let other: Awaited<ReturnType<TestApi["newIsv"]>>;
let priced: Awaited<ReturnType<typeof approvedMerchant>>;
let second: Awaited<ReturnType<typeof approvedMerchant>>;
let free: Awaited<ReturnType<typeof approvedMerchant>>;
let own: string;

// A residual is made for a month that is over: each test's activity is moved into the month it is about.
const now = new Date();
const monthsAgo = (n: number) => new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - n, 10, 12));
const periodOf = (at: Date) => at.toISOString().slice(0, 7);
const thisMonth = periodOf(now);
const lastMonthStart = monthsAgo(1);
const lastMonth = periodOf(lastMonthStart);
const monthBeforeStart = monthsAgo(2);
const monthBefore = periodOf(monthBeforeStart);
const threeMonthsAgo = periodOf(monthsAgo(3));

/** An application priced at nothing: every payment costs the platform more than it earns. */
const pricedAtNothing = (a: { capabilities?: unknown }) => {
  a.capabilities = {
    types: ["flat_rate"],
    options: {
      flat_rate: {
        rate_percent: "0.00",
        fee_fixed: "0.00",
        vmd_credit_rate_percent: "0.00",
        vmd_credit_fee_fixed: "0.00",
      },
    },
  };
};

beforeAll(async () => {
  api = await startTestApi({ worker: true });
  isv = await api.newIsv("Residual ISV");
  other = await api.newIsv("Other ISV");
  priced = await approvedMerchant(api, isv);
  second = await approvedMerchant(api, isv);
  // Priced at nothing: every payment costs the platform more than it earns (a loss).
  free = await approvedMerchant(api, isv, pricedAtNothing);
  const [row] = await api.db.select().from(merchants).where(eq(merchants.id, priced.id));
  const rotated = await rotateApiKey(api.db, row!.merchantAccountId!, false);
  own = `Basic ${Buffer.from(`${rotated.account_sid}:${rotated.secret_key}`).toString("base64")}`;
}, 120_000);
afterAll(() => api.close());

const get = (path: string, auth = isv.auth) => api.call("GET", path, { auth });
const generate = (period: string, auth = isv.auth) =>
  api.call("POST", "/v1/test_helpers/residuals/generate", { auth, body: { period } });
async function isvRevenue(accountId: string) {
  const [row] = rowsOf<{ total: string | number | null }>(
    await api.db.execute(
      sql`select sum(amount) as total from ledger_entries where account = 'revenue' and owner_id = ${accountId}`,
    ),
  );
  return Number(row?.total ?? 0);
}
/** What the ISV's charges of a merchant in a month add up to, read from the API (the expected line). */
async function expectedLine(merchantId: string, chargeIds: string[]) {
  const rows = await Promise.all(chargeIds.map(async (id) => (await get(`/v1/charges/${id}`)).json));
  const fees = rows.reduce((s, c) => s + (c.fee ?? 0), 0);
  const costs = rows.reduce((s, c) => s + (c.costs ?? 0), 0);
  const platformFees = rows.reduce(
    (s, c) => s + (c.platform_fee ? c.platform_fee.amount - c.platform_fee.refunded : 0),
    0,
  );
  const margin = fees - costs;
  const share = shareOf(margin, 80);
  return {
    merchant_id: merchantId,
    volume: rows.reduce((s, c) => s + c.amount_captured, 0),
    count: rows.length,
    merchant_fees: fees,
    costs,
    margin,
    share,
    platform_fees: platformFees,
    amount: share + platformFees,
  };
}

describe("a month at a loss, then a month that pays", () => {
  let lossId: string;
  let carried: number;

  test("the month before last: the unpriced merchant's payment cost more than it earned; the residual is negative and carried", async () => {
    const paid = await payRequest(api, isv, free, 10_000);
    const chargeId = paid.json.charge.id as string;
    // Made the month before last: the charge and its postings.
    await api.db.update(charges).set({ createdAt: monthBeforeStart }).where(eq(charges.id, chargeId));
    await postingsAt(api.db, [chargeId], ["charge", "platform_fee", "cost"], monthBeforeStart);
    const expected = await expectedLine(free.id, [chargeId]);
    expect(expected.merchant_fees).toBe(0);
    expect(expected.costs).toBeGreaterThan(0);

    const before = await isvRevenue(isv.account_id);
    const res = await generate(monthBefore);
    expect(res.status, res.text).toBe(200);
    expect(res.json).toMatchObject({
      object: "residual",
      period: monthBefore,
      volume: 10_000,
      count: 1,
      merchant_fees: 0,
      costs: expected.costs,
      margin: -expected.costs,
      revenue_share_percent: 80,
      share: expected.share,
      platform_fees: 0,
      carried_in: 0,
      adjustments: 0,
      amount: expected.share,
      status: "carried",
      payout_id: null,
      line_count: 1,
    });
    expect(res.json.share).toBeLessThan(0);
    lossId = res.json.id;
    carried = res.json.amount;
    // The ISV's share of the loss leaves its revenue in the ledger.
    expect((await isvRevenue(isv.account_id)) - before).toBe(expected.share);
    // Made once: again, the same residual and no second event.
    const again = await generate(monthBefore);
    expect(again.json.id).toBe(lossId);
    const made = await api.db
      .select()
      .from(events)
      .where(and(eq(events.type, "residual.created"), eq(events.objectId, lossId)));
    expect(made).toHaveLength(1);
  });

  test("last month: lines per merchant that add up to the residual, the month before's loss carried in", async () => {
    const a = await payRequest(api, isv, priced, 10_000, {}, { platform_fee: { amount: 150 } });
    const b = await payRequest(api, isv, priced, 2_345);
    const c = await payRequest(api, isv, second, 5_000, {}, { platform_fee: { percent: 2 } });
    const refund = await api.call("POST", "/v1/refunds", {
      auth: isv.auth,
      body: { charge_id: c.json.charge.id, amount: 2_500 },
    });
    expect(refund.status).toBe(200);
    const lines = [
      await expectedLine(priced.id, [a.json.charge.id, b.json.charge.id]),
      await expectedLine(second.id, [c.json.charge.id]),
    ].sort((x, y) => y.amount - x.amount);
    expect(lines[0]!.platform_fees + lines[1]!.platform_fees).toBe(150 + 50);

    // This month is not over: no residual yet (400), nothing made.
    const early = await generate(thisMonth);
    expect(early.status).toBe(400);
    expect(early.json.error).toMatchObject({ code: "parameter_invalid", param: "period" });
    expect((await get("/v1/residuals")).json.data).toHaveLength(1);
    await isvPostingsAt(api.db, isv.account_id, lastMonthStart);
    const before = await isvRevenue(isv.account_id);
    const res = await generate(lastMonth);
    expect(res.status, res.text).toBe(200);
    const residual = res.json;
    const sum = (key: keyof (typeof lines)[number]) => lines.reduce((s, l) => s + (l[key] as number), 0);
    expect(residual).toMatchObject({
      period: lastMonth,
      volume: sum("volume"),
      count: 3,
      merchant_fees: sum("merchant_fees"),
      costs: sum("costs"),
      margin: sum("margin"),
      share: sum("share"),
      platform_fees: 200,
      carried_in: carried,
      amount: sum("amount") + carried,
      line_count: 2,
    });
    expect(residual.status).toBe(residual.amount > 0 ? "pending" : "carried");
    expect((await isvRevenue(isv.account_id)) - before).toBe(sum("share"));

    const listed = (await get(`/v1/residuals/${residual.id}/lines`)).json;
    expect(listed.data.map(({ object: _o, residual_id: _r, ...line }: Record<string, unknown>) => line)).toEqual(lines);
    // A page at a time, by merchant.
    const first = (await get(`/v1/residuals/${residual.id}/lines?limit=1`)).json;
    expect(first).toMatchObject({ has_more: true });
    const next = (await get(`/v1/residuals/${residual.id}/lines?limit=1&starting_after=${first.data[0].merchant_id}`))
      .json;
    expect(next.data.map((l: { merchant_id: string }) => l.merchant_id)).toEqual([lines[1]!.merchant_id]);
    expect(next.has_more).toBe(false);

    // The CSV's amount column adds up to the residual; the PDF is addressed to the ISV.
    const csv = await (
      await fetch(`${api.baseUrl}/v1/residuals/${residual.id}/download?format=csv`, {
        headers: { Authorization: isv.auth },
      })
    ).text();
    const rows = csv
      .trim()
      .split("\n")
      .slice(1)
      .map((line) => line.split(","));
    expect(rows.map((r) => r[0])).toEqual(["merchant", "merchant", "carried_in"]);
    expect(rows.reduce((s, r) => s + Math.round(Number(r[12]) * 100), 0)).toBe(residual.amount);
    const pdf = await fetch(`${api.baseUrl}/v1/residuals/${residual.id}/download`, {
      headers: { Authorization: isv.auth },
    });
    expect(pdf.headers.get("content-type")).toBe("application/pdf");
    const bytes = new Uint8Array(await pdf.arrayBuffer());
    const text = (await pdfText(bytes)).join("\n");
    expect(text).toContain("For: Residual ISV");
    expect(text).toContain("Merchant Payments Platform");
    expect(text).toContain(`$${(residual.amount / 100).toFixed(2)}`);
    expect(pdfToPngs(bytes, "residual").length).toBeGreaterThan(0);

    // The list, newest first.
    const all = (await get("/v1/residuals")).json.data.map((r: { id: string }) => r.id);
    expect(all).toEqual([residual.id, lossId]);
    expect(await checkLedger(api.db)).toEqual([]);
  });

  test("made in order, for a month that is over", async () => {
    const earlier = await generate(threeMonthsAgo);
    expect(earlier.status).toBe(409);
    expect(earlier.json.error.code).toBe("invalid_state");
    const future = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 5)).toISOString().slice(0, 7);
    expect((await generate(future)).status).toBe(400);
    expect((await generate(thisMonth)).status).toBe(400);
    expect((await generate("2026-13")).status).toBe(400);
    expect((await get("/v1/residuals")).json.data).toHaveLength(2);
  });
});

describe("the ISV's eyes only", () => {
  test("another ISV's residual is not found; a merchant's own key is refused; the other ISV lists none", async () => {
    const [mine] = (await get("/v1/residuals")).json.data;
    for (const path of [
      `/v1/residuals/${mine.id}`,
      `/v1/residuals/${mine.id}/lines`,
      `/v1/residuals/${mine.id}/download`,
    ]) {
      expect((await get(path, other.auth)).status, path).toBe(404);
      expect((await get(path, own)).status, path).toBe(403);
    }
    expect((await get("/v1/residuals", other.auth)).json.data).toEqual([]);
    expect((await generate(thisMonth, own)).status).toBe(403);
    // Nor its lines as a report (the ISV's costs and margin), and nothing is made.
    const refused = await api.call("POST", "/v1/reports", {
      auth: own,
      body: { type: "residual_lines", interval: { start: Date.now() - 3_600_000, end: Date.now() + 60_000 } },
    });
    expect(refused.status).toBe(403);
    expect(refused.json.error.code).toBe("permission_denied");
    expect(await api.db.select().from(reports).where(eq(reports.merchantId, priced.id))).toEqual([]);
  });

  test("the residual_lines report lists the lines of the residuals made in its interval", async () => {
    const report = await api.call("POST", "/v1/reports", {
      auth: isv.auth,
      body: { type: "residual_lines", interval: { start: Date.now() - 3_600_000, end: Date.now() + 60_000 } },
    });
    expect(report.status).toBe(200);
    const deadline = Date.now() + 20_000;
    let csv = "";
    while (Date.now() < deadline) {
      const res = await fetch(`${api.baseUrl}/v1/reports/${report.json.id}/download`, {
        headers: { Authorization: isv.auth },
      });
      if (res.status === 200) {
        csv = await res.text();
        break;
      }
      await new Promise((r) => setTimeout(r, 100));
    }
    const rows = csv.trim().split("\n");
    expect(rows[0]).toBe(
      "residual_id,period,merchant_id,volume,count,merchant_fees,costs,margin,share,platform_fees,amount",
    );
    const merchantsInIt = new Set(rows.slice(1).map((r) => r.split(",")[2]));
    expect(merchantsInIt).toEqual(new Set([priced.id, second.id, free.id]));
  });
});

describe("two months made at once", () => {
  // Meaningful on PostgreSQL (PGlite runs one transaction at a time): without the ISV's row taken
  // first, both read the loss of two months ago as the last residual and carried it in twice.
  test("a loss is carried into one later residual only", async () => {
    const racer = await api.newIsv("Racing residual ISV");
    const loss = await approvedMerchant(api, racer, pricedAtNothing);
    const paid = await payRequest(api, racer, loss, 10_000);
    const chargeId = paid.json.charge.id as string;
    const loss3 = monthsAgo(3);
    await api.db.update(charges).set({ createdAt: loss3 }).where(eq(charges.id, chargeId));
    await postingsAt(api.db, [chargeId], ["charge", "platform_fee", "cost"], loss3);
    // The month before last earned more than the loss (a platform fee): its residual pays, and carries nothing on.
    const earner = await approvedMerchant(api, racer);
    const earned = await payRequest(api, racer, earner, 20_000, {}, { platform_fee: { amount: 5_000 } });
    const earnedId = earned.json.charge.id as string;
    await api.db.update(charges).set({ createdAt: monthBeforeStart }).where(eq(charges.id, earnedId));
    await postingsAt(api.db, [earnedId], ["charge", "platform_fee", "cost"], monthBeforeStart);
    const first = await generate(threeMonthsAgo, racer.auth);
    expect(first.json).toMatchObject({ status: "carried" });
    expect(first.json.amount).toBeLessThan(0);
    const [a, b] = await Promise.all([generate(monthBefore, racer.auth), generate(lastMonth, racer.auth)]);
    expect([a, b].every((r) => r.status === 200 || r.json.error.code === "invalid_state")).toBe(true);
    // Each residual carries in exactly what the one before it left (a loss, once).
    const all = (
      (await get("/v1/residuals", racer.auth)).json.data as {
        period: string;
        amount: number;
        status: string;
        carried_in: number;
      }[]
    ).sort((x, y) => x.period.localeCompare(y.period));
    for (let i = 1; i < all.length; i++) {
      const before = all[i - 1]!;
      expect(all[i]!.carried_in, all[i]!.period).toBe(before.status === "carried" ? before.amount : 0);
    }
    expect(all.filter((r) => r.carried_in === first.json.amount)).toHaveLength(1);
    expect(await checkLedger(api.db)).toEqual([]);
  });
});
