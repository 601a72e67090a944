import { afterAll, beforeAll, expect, test } from "vitest";

import { reports } from "@/lib/db/schema";
import { createId } from "@/lib/ids";

import { startTestApi, type TestApi } from "../helpers/api";
import { approvedMerchant, tokenize } from "../helpers/payments";
import { until } from "../helpers/until";

// Reports (docs/reference.md section 18): asked for, made by the worker's job from the ledger,
// downloaded as CSV; `report.succeeded` in the account scope; other accounts' reports are 404.

let api: TestApi;
let isv: Awaited<ReturnType<TestApi["newIsv"]>>;

beforeAll(async () => {
  api = await startTestApi({ worker: true });
  isv = await api.newIsv("Reports ISV");
}, 120_000);
afterAll(() => api.close());

const post = (path: string, body?: unknown, auth = isv.auth) => api.call("POST", path, { auth, body });
const get = (path: string, auth = isv.auth) => api.call("GET", path, { auth });
const cents = (text: string) => {
  const [whole, part] = text.replace(/^-/, "").split(".") as [string, string];
  return (text.startsWith("-") ? -1 : 1) * (Number(whole) * 100 + Number(part));
};
const csvRows = (csv: string) =>
  csv
    .trim()
    .split("\n")
    .map((line) => line.split(","));

test("a balance transactions report and a payout reconciliation: made by the job, their CSVs add up to the ledger's", async () => {
  const merchant = await approvedMerchant(api, isv);
  const start = Date.now() - 1_000;
  for (const amount of [10_000, 2_599]) {
    const pr = (await post("/v1/scan_to_pay", { merchant_id: merchant.id, amount })).json;
    await api.call("POST", `/v1/payment_requests/${pr.id}/pay`, {
      body: { token: await tokenize(api, merchant.publishableKey) },
    });
  }
  const charges = (await get(`/v1/charges?merchant_id=${merchant.id}`)).json.data;
  await post("/v1/refunds", { charge_id: charges[0].id, amount: 599 });
  await post("/v1/test_helpers/settlement/run", { merchant_id: merchant.id });
  const payout = await until(
    async () => (await get(`/v1/payouts?merchant_id=${merchant.id}`)).json.data[0],
    // Sent: its own balance transaction is written when the worker sends it, not when it is made.
    (p) => p !== undefined && p.status !== "pending",
    20_000,
    "the payout sent",
  );
  const end = Date.now() + 1_000;

  const asked = await post("/v1/reports", {
    type: "balance_transactions",
    merchant_id: merchant.id,
    interval: { start, end },
  });
  expect(asked.status, asked.text).toBe(200);
  expect(asked.json).toMatchObject({ object: "report", status: "pending", merchant_id: merchant.id, row_count: null });
  const done = await until(
    async () => (await get(`/v1/reports/${asked.json.id}`)).json,
    (r) => r.status !== "pending",
    20_000,
    "the report",
  );
  expect(done.status).toBe("succeeded");
  const download = await fetch(`${api.baseUrl}/v1/reports/${done.id}/download`, {
    headers: { authorization: isv.auth },
  });
  expect(download.headers.get("content-type")).toMatch(/^text\/csv/);
  const csv = await download.text();
  const [header, ...rows] = csvRows(csv);
  expect(header!.slice(0, 8)).toEqual(["id", "created", "merchant_id", "type", "source", "amount", "fee", "net"]);
  const ledger = (await get(`/v1/balance_transactions?merchant_id=${merchant.id}&limit=100`)).json.data as {
    id: string;
    net: number;
  }[];
  expect(rows.map((r) => r[0]).sort()).toEqual(ledger.map((t) => t.id).sort());
  expect(done.row_count).toBe(ledger.length);
  expect(rows.reduce((sum, r) => sum + cents(r[7]!), 0)).toBe(ledger.reduce((sum, t) => sum + t.net, 0));
  // The same bytes again.
  expect(
    await (
      await fetch(`${api.baseUrl}/v1/reports/${done.id}/download`, { headers: { authorization: isv.auth } })
    ).text(),
  ).toBe(csv);

  // The payout reconciliation: the payout's lines add up to it.
  const recon = (await post("/v1/reports", { type: "payout_reconciliation", interval: { start, end } })).json;
  await until(
    async () => (await get(`/v1/reports/${recon.id}`)).json.status,
    (s) => s === "succeeded",
    20_000,
    "the reconciliation",
  );
  const reconCsv = await (
    await fetch(`${api.baseUrl}/v1/reports/${recon.id}/download`, { headers: { authorization: isv.auth } })
  ).text();
  const lines = csvRows(reconCsv)
    .slice(1)
    .filter((r) => r[0] === payout.id);
  expect(lines.map((r) => r[6]).sort()).toEqual(["charge", "charge", "refund"]);
  expect(lines.reduce((sum, r) => sum + cents(r[10]!), 0)).toBe(payout.amount);
  expect(cents(lines[0]![2]!)).toBe(payout.amount);

  // Its event, in the account scope.
  const events = (await get("/v1/events?limit=100")).json.data as { type: string; data: { object: { id: string } } }[];
  expect(events.filter((e) => e.type === "report.succeeded").map((e) => e.data.object.id)).toEqual(
    expect.arrayContaining([done.id, recon.id]),
  );
}, 120_000);

test("bad requests say what is wrong and make nothing; a report not made yet is 409 to download; another ISV's is 404", async () => {
  const bad = await post("/v1/reports", { type: "balance_transactions", interval: { start: 2_000, end: 1_000 } });
  expect(bad.status).toBe(400);
  expect(bad.text).toContain("interval.end");
  expect((await post("/v1/reports", { type: "everything", interval: { start: 1, end: 2 } })).status).toBe(400);
  const tooLong = await post("/v1/reports", {
    type: "balance_transactions",
    interval: { start: 0, end: 400 * 86_400_000 },
  });
  expect(tooLong.status).toBe(400);
  const other = await api.newIsv("Other reports ISV");
  const someoneElses = await post(
    "/v1/reports",
    { type: "balance_transactions", merchant_id: "mer_doesnotexist", interval: { start: 1, end: 2 } },
    other.auth,
  );
  expect(someoneElses.status).toBe(404);
  // A pending report (its job not run): its CSV is not there yet.
  const [pending] = await api.db
    .insert(reports)
    .values({
      id: createId("rep"),
      isvAccountId: isv.account_id,
      type: "balance_transactions",
      intervalStart: new Date(1),
      intervalEnd: new Date(2),
      status: "pending",
    })
    .returning();
  const early = await get(`/v1/reports/${pending!.id}/download`);
  expect(early.status).toBe(409);
  expect(early.json.error.code).toBe("invalid_state");
  expect((await get(`/v1/reports/${pending!.id}`, other.auth)).status).toBe(404);
  expect((await get(`/v1/reports/${pending!.id}/download`, other.auth)).status).toBe(404);
});
