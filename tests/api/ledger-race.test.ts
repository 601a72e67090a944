import { afterAll, beforeAll, expect, test } from "vitest";

import { checkLedger } from "@/lib/ledger/check";

import { startTestApi, type TestApi } from "../helpers/api";
import { approvedMerchant, tokenize } from "../helpers/payments";
import { until } from "../helpers/until";

// Money at once on one merchant (docs/reference.md section 18; meaningful on PostgreSQL, where the
// requests run in parallel transactions: PGlite serves one statement at a time): 50 payments,
// refunds of the ones already made and a settlement, all in flight together. After: the ledger
// holds every invariant, the balance is the sum of the balance transactions, and every charge,
// refund and settlement has exactly its postings.

let api: TestApi;
let isv: Awaited<ReturnType<TestApi["newIsv"]>>;

beforeAll(async () => {
  api = await startTestApi({ worker: true });
  isv = await api.newIsv("Ledger race ISV");
}, 120_000);
afterAll(() => api.close());

const post = (path: string, body?: unknown) => api.call("POST", path, { auth: isv.auth, body });
const get = (path: string) => api.call("GET", path, { auth: isv.auth });

test("50 payments, refunds and a settlement at once leave the ledger balanced and the balance its transactions' sum", async () => {
  const merchant = await approvedMerchant(api, isv);
  // Ready before the race: 50 payment requests and their tokens, and 10 charges to refund.
  const requests = await Promise.all(
    Array.from({ length: 50 }, async (_, i) => ({
      pr: (await post("/v1/scan_to_pay", { merchant_id: merchant.id, amount: 1_000 + i })).json.id as string,
      token: await tokenize(api, merchant.publishableKey),
    })),
  );
  const earlier: string[] = [];
  for (let i = 0; i < 10; i++) {
    const pr = (await post("/v1/scan_to_pay", { merchant_id: merchant.id, amount: 5_000 })).json.id;
    const paid = await api.call("POST", `/v1/payment_requests/${pr}/pay`, {
      body: { token: await tokenize(api, merchant.publishableKey) },
    });
    earlier.push(paid.json.charge.id);
  }
  const results = await Promise.all([
    ...requests.map((r) => api.call("POST", `/v1/payment_requests/${r.pr}/pay`, { body: { token: r.token } })),
    // Two refunds racing on each earlier charge: at most what was captured is refunded.
    ...earlier.flatMap((id) => [
      post("/v1/refunds", { charge_id: id, amount: 3_000 }),
      post("/v1/refunds", { charge_id: id, amount: 3_000 }),
    ]),
    post("/v1/test_helpers/settlement/run", { merchant_id: merchant.id }),
  ]);
  expect(results.slice(0, 50).every((r) => r.status === 200)).toBe(true);
  const refunds = results.slice(50, 70);
  // Each charge: one refund of 30.00 taken, the other refused (only 20.00 left): never more than captured.
  expect(refunds.filter((r) => r.status === 200)).toHaveLength(10);
  expect(refunds.filter((r) => r.status !== 200).every((r) => r.status === 400)).toBe(true);
  // One more settlement for whatever the racing one did not take.
  await post("/v1/test_helpers/settlement/run", { merchant_id: merchant.id });
  // The worker sends the settlements' payouts on its own, and a payout posts when sent: wait until
  // none is pending, or the balance and the transactions read a moment apart can disagree.
  await until(
    async () => (await get(`/v1/payouts?merchant_id=${merchant.id}`)).json.data as { status: string }[],
    (payouts) => payouts.length > 0 && payouts.every((p) => p.status !== "pending"),
    30_000,
    "every payout sent",
  );

  expect(await checkLedger(api.db)).toEqual([]);
  const balance = (await get(`/v1/balance?merchant_id=${merchant.id}`)).json;
  let sum = 0;
  let count = 0;
  let after: string | undefined;
  for (;;) {
    const page = (
      await get(
        `/v1/balance_transactions?merchant_id=${merchant.id}&limit=100${after ? `&starting_after=${after}` : ""}`,
      )
    ).json;
    for (const t of page.data as { net: number; type: string }[]) {
      sum += t.net;
      if (t.type === "charge" || t.type === "refund") count++;
    }
    if (!page.has_more) break;
    after = page.data.at(-1).id;
  }
  expect(balance.available + balance.pending).toBe(sum);
  // 60 charges and 10 refunds, each once.
  expect(count).toBe(70);
  // Everything settled: nothing pending.
  expect(balance.pending).toBe(0);
}, 180_000);
