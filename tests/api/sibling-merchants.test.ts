import { eq } from "drizzle-orm";
import { afterAll, beforeAll, expect, test } from "vitest";

import { merchants } from "@/lib/db/schema";
import { rotateApiKey } from "@/lib/domain/accounts/rotate-api-key";
import { checkLedger } from "@/lib/ledger/check";
import { SANDBOX_DISPUTED_CARD } from "@/lib/processors/sandbox";

import { startTestApi, type TestApi } from "../helpers/api";
import { approvedMerchant, tokenize } from "../helpers/payments";
import { until } from "../helpers/until";

// A merchant's own key never reaches another merchant of the same ISV (docs/reference.md section 2):
// one table over every merchant-scoped resource, each with the sibling's id. The sibling has one of
// everything: a charge, a refund, a payment request, a settlement, a payout, a dispute, a file, a
// statement.

let api: TestApi;
let isv: Awaited<ReturnType<TestApi["newIsv"]>>;
let own: string;
let mineId: string;
const theirs: Record<string, string> = {};

const post = (path: string, body: unknown = {}, auth = isv.auth) => api.call("POST", path, { auth, body });
const get = (path: string, auth = isv.auth) => api.call("GET", path, { auth });

async function pay(merchant: Awaited<ReturnType<typeof approvedMerchant>>, amount: number, card?: string) {
  const pr = (await post("/v1/scan_to_pay", { merchant_id: merchant.id, amount })).json;
  const paid = await api.call("POST", `/v1/payment_requests/${pr.id}/pay`, {
    body: { token: await tokenize(api, merchant.publishableKey, card) },
  });
  expect(paid.status).toBe(200);
  return { chargeId: paid.json.charge.id as string, requestId: pr.id as string };
}

beforeAll(async () => {
  api = await startTestApi({ worker: true });
  isv = await api.newIsv("Siblings ISV");
  const mine = await approvedMerchant(api, isv);
  const sibling = await approvedMerchant(api, isv);
  mineId = mine.id;
  theirs.merchant = sibling.id;
  const [row] = await api.db.select().from(merchants).where(eq(merchants.id, mine.id));
  const rotated = await rotateApiKey(api.db, row!.merchantAccountId!, false);
  own = `Basic ${Buffer.from(`${rotated.account_sid}:${rotated.secret_key}`).toString("base64")}`;

  await pay(mine, 1_000);
  const paid = await pay(sibling, 5_000);
  theirs.charge = paid.chargeId;
  theirs.request = paid.requestId;
  const disputed = await pay(sibling, 9_000, SANDBOX_DISPUTED_CARD);
  theirs.refund = (await post("/v1/refunds", { charge_id: paid.chargeId, amount: 500 })).json.id;
  const run = (await post("/v1/test_helpers/settlement/run", { merchant_id: sibling.id })).json;
  theirs.settlement = run.data[0].id;
  theirs.payout = await until(
    async () => (await get(`/v1/payouts?merchant_id=${sibling.id}`)).json.data[0]?.id as string | undefined,
    (id) => id !== undefined,
    20_000,
  ).then((id) => id!);
  theirs.dispute = await until(
    async () => (await get(`/v1/charges/${disputed.chargeId}`)).json.dispute_id as string | null,
    (id) => id !== null,
    20_000,
  ).then((id) => id!);
  const form = new FormData();
  form.set("purpose", "additional_verification");
  form.set("merchant_id", sibling.id);
  form.set(
    "file",
    new Blob([new Uint8Array(Buffer.from("%PDF-1.4\n% sibling\n%%EOF\n"))], { type: "application/pdf" }),
    "a.pdf",
  );
  const uploaded = await fetch(`${api.baseUrl}/v1/files`, {
    method: "POST",
    body: form,
    headers: { authorization: isv.auth },
  });
  theirs.file = ((await uploaded.json()) as { id: string }).id;
  const period = new Date().toISOString().slice(0, 7);
  theirs.statement = (await post("/v1/test_helpers/statements/generate", { merchant_id: sibling.id, period })).json.id;
  theirs.balanceTransaction = (
    await get(`/v1/balance_transactions?merchant_id=${sibling.id}&type=charge&limit=1`)
  ).json.data[0].id;
  for (const [name, id] of Object.entries(theirs)) expect(id, name).toMatch(/^[a-z]+_/);
}, 120_000);
afterAll(() => api.close());

// Every read and every action on a sibling's object: never 200, nothing learned (404, or 403 where a
// merchant's key may not call the operation at all).
const cases: { name: string; call: () => [string, string, unknown?]; statuses: number[] }[] = [
  { name: "GET the charge", call: () => ["GET", `/v1/charges/${theirs.charge}`], statuses: [404] },
  { name: "GET the refund", call: () => ["GET", `/v1/refunds/${theirs.refund}`], statuses: [404] },
  {
    name: "refund its charge",
    call: () => ["POST", "/v1/refunds", { charge_id: theirs.charge, amount: 100 }],
    statuses: [404],
  },
  { name: "GET the payment request", call: () => ["GET", `/v1/payment_requests/${theirs.request}`], statuses: [404] },
  {
    name: "cancel the payment request",
    call: () => ["POST", `/v1/payment_requests/${theirs.request}/cancel`],
    statuses: [404],
  },
  { name: "GET the settlement", call: () => ["GET", `/v1/settlements/${theirs.settlement}`], statuses: [404] },
  {
    name: "GET the settlement's charges",
    call: () => ["GET", `/v1/settlements/${theirs.settlement}/charges`],
    statuses: [404],
  },
  { name: "GET the payout", call: () => ["GET", `/v1/payouts/${theirs.payout}`], statuses: [404] },
  { name: "GET its balance", call: () => ["GET", `/v1/balance?merchant_id=${theirs.merchant}`], statuses: [404] },
  {
    name: "GET a balance transaction",
    call: () => ["GET", `/v1/balance_transactions/${theirs.balanceTransaction}`],
    statuses: [404],
  },

  { name: "GET the dispute", call: () => ["GET", `/v1/disputes/${theirs.dispute}`], statuses: [404] },
  {
    name: "save evidence on the dispute",
    call: () => ["POST", `/v1/disputes/${theirs.dispute}`, { evidence: { uncategorized_text: "x" } }],
    statuses: [404],
  },
  { name: "submit the dispute", call: () => ["POST", `/v1/disputes/${theirs.dispute}/submit`], statuses: [404] },
  { name: "accept the dispute", call: () => ["POST", `/v1/disputes/${theirs.dispute}/accept`], statuses: [404] },
  { name: "GET the file", call: () => ["GET", `/v1/files/${theirs.file}`], statuses: [401, 403, 404] },
  {
    name: "GET the file's contents",
    call: () => ["GET", `/v1/files/${theirs.file}/contents`],
    statuses: [401, 403, 404],
  },
  { name: "list its statements", call: () => ["GET", `/v1/statements/${theirs.merchant}`], statuses: [404] },
  {
    name: "GET the statement",
    call: () => ["GET", `/v1/statements/${theirs.merchant}/${theirs.statement}`],
    statuses: [404],
  },
  {
    name: "download the statement",
    call: () => ["GET", `/v1/statements/${theirs.merchant}/download/${theirs.statement}`],
    statuses: [404],
  },
  {
    name: "ask a payment for it",
    call: () => ["POST", "/v1/scan_to_pay", { merchant_id: theirs.merchant, amount: 100 }],
    statuses: [404],
  },
];

test.each(cases)("a merchant's own key cannot $name of a sibling merchant", async ({ call, statuses }) => {
  const [method, path, body] = call();
  const res = await api.call(method, path, { auth: own, ...(body !== undefined ? { body } : {}) });
  expect(statuses, `${method} ${path}: ${res.status} ${res.text.slice(0, 200)}`).toContain(res.status);
  // An error in the contract's shape, never the object (a 404 may name the id it was asked for).
  expect(res.json?.error?.type, res.text.slice(0, 200)).toBeDefined();
  expect(res.json?.object).toBeUndefined();
});

test.each(["charges", "refunds", "payment_requests", "settlements", "payouts", "disputes", "balance_transactions"])(
  "GET /v1/%s with the merchant's own key lists none of the sibling's, filtered for it or not",
  async (resource) => {
    const all = await api.call("GET", `/v1/${resource}?limit=100`, { auth: own });
    expect(all.status).toBe(200);
    expect(all.text).not.toContain(theirs.merchant);
    for (const id of Object.values(theirs)) expect(all.text).not.toContain(id);
    const filtered = await api.call("GET", `/v1/${resource}?merchant_id=${theirs.merchant}&limit=100`, { auth: own });
    expect(filtered.status === 404 || (filtered.status === 200 && filtered.json.data.length === 0), filtered.text).toBe(
      true,
    );
    // And the ISV's key sees the sibling's: the table's objects exist.
    const isvView = await api.call("GET", `/v1/${resource}?merchant_id=${theirs.merchant}&limit=100`, {
      auth: isv.auth,
    });
    expect(isvView.status).toBe(200);
    if (resource !== "payment_requests" || isvView.json.data.length)
      expect(isvView.json.data.length).toBeGreaterThan(0);
    expect(all.text).not.toContain(`"merchant_id":"${theirs.merchant}"`);
    void mineId;
  },
);

test("the ledger's invariants hold after every test above (docs/reference.md section 18)", async () => {
  expect(await checkLedger(api.db)).toEqual([]);
});
