import { eq } from "drizzle-orm";
import { afterAll, beforeAll, expect, test } from "vitest";

import { merchants } from "@/lib/db/schema";
import { getCharge } from "@/lib/domain/charges/find-charge";
import { dashboardOverview } from "@/lib/domain/dashboard/overview";
import { openDispute } from "@/lib/domain/disputes/open-dispute";
import { homeOverview } from "@/lib/domain/home/overview";
import { merchantVolumes } from "@/lib/domain/merchants/merchant-volume";
import { settlementWithLines } from "@/lib/domain/settlements/find-settlement";
import { checkLedger } from "@/lib/ledger/check";
import { summaryLines } from "@/lib/ledger/settlement-figures";
import { formatCents } from "@/lib/money";
import { activityPostingTypes } from "@/lib/schemas/ledger-values";

import { startTestApi, type TestApi } from "../helpers/api";
import { approvedMerchant, payRequest } from "../helpers/payments";
import { pdfText } from "../helpers/pdf";
import { until } from "../helpers/until";

// Issue 70: every money figure on every surface for one merchant agrees with the ledger's API
// (GET /v1/balance and the balance transactions). One merchant takes card payments (one with the
// ISV's platform fee), a refund, a bank debit its bank returns, and a dispute; its settlements run
// and their payouts are sent. Then each surface's figure is listed beside what the balance
// transactions say it must be: the home's month, the dashboard's overview and merchants list, each
// settlement's lines (the home's settlement page), its payout and the payout's lines, the month's
// statement (JSON, CSV and PDF), each charge's net (the API's and its page's), and the balance itself.

let api: TestApi;
let isv: Awaited<ReturnType<TestApi["newIsv"]>>;

beforeAll(async () => {
  api = await startTestApi({ worker: true });
  isv = await api.newIsv("Surfaces ISV");
}, 120_000);
afterAll(() => api.close());

const post = (path: string, body?: unknown) => api.call("POST", path, { auth: isv.auth, body });
const get = (path: string) => api.call("GET", path, { auth: isv.auth });

type Txn = {
  id: string;
  type: string;
  source: string;
  amount: number;
  fee: number;
  net: number;
  payout_id: string | null;
};

async function all<T>(path: string): Promise<T[]> {
  const rows: T[] = [];
  let after: string | undefined;
  for (;;) {
    const sep = path.includes("?") ? "&" : "?";
    const page = (await get(`${path}${sep}limit=100${after ? `&starting_after=${after}` : ""}`)).json;
    rows.push(...(page.data as T[]));
    if (!page.has_more) return rows;
    after = (page.data.at(-1) as { id: string }).id;
  }
}

/** A decimal of the CSV ("-12.34") in cents. */
const cents = (decimal: string) => {
  const [whole, fraction = "0"] = decimal.replace("-", "").split(".");
  return (decimal.startsWith("-") ? -1 : 1) * (Number(whole) * 100 + Number(fraction.padEnd(2, "0")));
};

test("every surface's figure for one merchant is the ledger's", async () => {
  const merchant = await approvedMerchant(api, isv);
  const paid = async (amount: number, source: { account?: string } = {}, create: Record<string, unknown> = {}) => {
    const res = await payRequest(api, isv, merchant, amount, source, create);
    expect(res.status, res.text).toBe(200);
    return res.json.charge.id as string;
  };
  await paid(10_000, {}, { platform_fee: { amount: 300 } });
  const refunded = await paid(5_000);
  expect((await post("/v1/refunds", { charge_id: refunded, amount: 2_000 })).status).toBe(200);
  const debit = await paid(30_000, { account: "000222222227" });
  const disputed = await paid(8_000);
  expect((await post("/v1/test_helpers/settlement/run", { merchant_id: merchant.id })).status).toBe(200);
  // A settled card payment is disputed, and the bank returns the debit: the second settlement takes both.
  expect(await openDispute(api.db, disputed, "fraudulent")).not.toBeNull();
  await until(
    async () => (await get(`/v1/charges/${debit}`)).json.status,
    (s) => s === "RETURNED",
    20_000,
    "the debit returned",
  );
  expect((await post("/v1/test_helpers/settlement/run", { merchant_id: merchant.id })).status).toBe(200);
  await until(
    async () => (await get(`/v1/payouts?merchant_id=${merchant.id}`)).json.data as { status: string }[],
    (payouts) => payouts.length > 0 && payouts.every((p) => p.status !== "pending"),
    20_000,
    "every payout sent",
  );
  expect(await checkLedger(api.db, merchant.id)).toEqual([]);

  // The ledger's API: the balance, and every transaction.
  const balance = (await get(`/v1/balance?merchant_id=${merchant.id}`)).json;
  const txns = await all<Txn>(`/v1/balance_transactions?merchant_id=${merchant.id}`);
  const ofType = (...types: string[]) => txns.filter((t) => types.includes(t.type));
  const sum = (rows: Txn[], key: "amount" | "fee" | "net") => rows.reduce((s, t) => s + t[key], 0);
  const gross = sum(ofType("charge"), "amount");
  const refunds = -sum(ofType("refund"), "amount");
  const returns = -sum(ofType("ach_return"), "amount");
  const reversals = sum(ofType("ach_return_reversal"), "amount");
  const activity = sum(ofType(...activityPostingTypes), "net");
  // The merchant took all of it: the figures below are not zeros agreeing with zeros.
  expect([gross, refunds, returns]).toEqual([53_000, 2_000, 30_000]);
  expect(ofType("platform_fee")).toHaveLength(1);
  expect(ofType("dispute")).toHaveLength(1);

  const row = (await api.db.select().from(merchants).where(eq(merchants.id, merchant.id)))[0]!;
  const home = await homeOverview(api.db, row);
  const overview = await dashboardOverview(api.db, isv.account_id);
  const volumes = await merchantVolumes(api.db, isv.account_id, [merchant.id]);
  const settlements = await all<{ id: string; net: number; carried_in: number }>(
    `/v1/settlements?merchant_id=${merchant.id}`,
  );
  expect(settlements).toHaveLength(2);
  const payouts = await all<{ id: string; amount: number; status: string; settlement_id: string }>(
    `/v1/payouts?merchant_id=${merchant.id}`,
  );

  const surfaces: [string, number, number][] = [
    ["balance = its transactions", balance.available + balance.pending, sum(txns, "net")],
    ["home: this month, after refunds", home.month.amount, gross - refunds - returns + reversals],
    ["home: next settlement (everything taken)", home.nextSettlement.amount, 0],
    ["dashboard overview: gross volume this month", overview.month.volume, gross],
    ["dashboard overview: refunds this month", overview.month.refunds, refunds],
    ["dashboard merchants: net volume", volumes.get(merchant.id)?.amount ?? 0, gross - refunds - returns + reversals],
    [
      "settlements: their nets less what was carried in = the activity",
      settlements.reduce((s, x) => s + x.net - x.carried_in, 0),
      activity,
    ],
  ];
  for (const settlement of settlements) {
    // The home's settlement page: its summary lines add up to its net.
    const { totals } = await settlementWithLines(api.db, { isvAccountId: isv.account_id }, settlement.id);
    const lines = summaryLines(totals);
    surfaces.push([`settlement ${settlement.id}: its lines`, lines.reduce((s, l) => s + l.amount, 0), settlement.net]);
    const payout = payouts.find((p) => p.settlement_id === settlement.id);
    if (settlement.net <= 0) {
      surfaces.push([`settlement ${settlement.id}: no payout`, payout ? 1 : 0, 0]);
      continue;
    }
    surfaces.push([`settlement ${settlement.id}: its payout`, payout?.amount ?? 0, settlement.net]);
    const paidOut = await all<Txn>(`/v1/balance_transactions?payout=${payout!.id}`);
    surfaces.push([
      `payout ${payout!.id}: its lines`,
      sum(
        paidOut.filter((t) => t.type !== "payout"),
        "net",
      ),
      payout!.amount,
    ]);
    surfaces.push([
      `payout ${payout!.id}: its own line`,
      sum(
        paidOut.filter((t) => t.type === "payout"),
        "net",
      ),
      -payout!.amount,
    ]);
  }

  // The month's statement (a preview: the month has not ended), its CSV and its PDF.
  const period = new Date().toISOString().slice(0, 7);
  const made = await post("/v1/test_helpers/statements/generate", { merchant_id: merchant.id, period });
  expect(made.status, made.text).toBe(200);
  const statement = (await get(`/v1/statements/${merchant.id}/${made.json.id}`)).json;
  const monthEnd = (statement.fee_lines as { kind: string; amount: number }[])
    .filter((l) => l.kind === "monthly" || l.kind === "ach_activity")
    .reduce((s, l) => s + l.amount, 0);
  surfaces.push(
    ["statement: gross volume", statement.gross_volume, gross],
    ["statement: refunds", statement.refunds, refunds],
    ["statement: returns", statement.returns, returns],
    ["statement: reversals", statement.reversals, reversals],
    [
      "statement: platform fees",
      statement.platform_fees,
      -sum(ofType("platform_fee", "platform_fee_refund"), "amount"),
    ],
    ["statement: net, before the month-end fees", statement.net + monthEnd, activity],
  );
  const csv = await fetch(`${api.baseUrl}/v1/statements/${merchant.id}/download/${statement.id}?format=csv`, {
    headers: { authorization: isv.auth },
  });
  const [, ...rows] = (await csv.text())
    .trim()
    .split("\n")
    .map((l) => l.split(","));
  // Each charge's net (the API's, which the home's and the dashboard's payment pages show) is its
  // own and its refunds' balance transactions: after the refund, the platform fee and the return.
  const charged = await all<{ id: string; net: number | null; refunds: { id: string }[] }>(
    `/v1/charges?merchant_id=${merchant.id}`,
  );
  expect(charged).toHaveLength(4);
  for (const charge of charged) {
    const sources = new Set([charge.id, ...charge.refunds.map((r) => r.id)]);
    surfaces.push([
      `charge ${charge.id}: its net`,
      charge.net ?? 0,
      sum(
        txns.filter((t) => sources.has(t.source) && !t.type.startsWith("dispute")),
        "net",
      ),
    ]);
    const page = await getCharge(api.db, { isvAccountId: isv.account_id, merchantId: merchant.id }, charge.id);
    surfaces.push([`charge ${charge.id}: its page's net`, page.charge.net ?? 0, charge.net ?? 0]);
  }
  surfaces.push(["statement CSV: the net column", rows.reduce((s, r) => s + cents(r[6]!), 0), statement.net]);
  const pdf = await fetch(`${api.baseUrl}/v1/statements/${merchant.id}/download/${statement.id}`, {
    headers: { authorization: isv.auth },
  });
  const text = (await pdfText(new Uint8Array(await pdf.arrayBuffer()))).join("\n");
  surfaces.push(["statement PDF: shows the net", text.includes(formatCents(statement.net, "en-US")) ? 1 : 0, 1]);

  // One diff naming every surface that disagrees.
  expect(Object.fromEntries(surfaces.map(([name, shown]) => [name, shown]))).toEqual(
    Object.fromEntries(surfaces.map(([name, , ledger]) => [name, ledger])),
  );
}, 180_000);
