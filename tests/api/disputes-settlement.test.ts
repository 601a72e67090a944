import { afterAll, beforeAll, expect, test } from "vitest";

import { decideDispute } from "@/lib/domain/disputes/close-dispute";
import { openDispute } from "@/lib/domain/disputes/open-dispute";
import { settleAll } from "@/lib/domain/settlements/run-settlement";
import { checkLedger } from "@/lib/ledger/check";

import { startTestApi, type TestApi } from "../helpers/api";
import { postingsAt } from "../helpers/ledger";
import { approvedMerchant, payRequest } from "../helpers/payments";

// Disputes in settlements (docs/reference.md section 16, issue 47): a settlement takes only the
// disputes opened before its cutoff (their amounts and fees), and gives a won dispute's amount back
// with or after the settlement that took it, once (its posting is never before the dispute's).

let api: TestApi;
let isv: Awaited<ReturnType<TestApi["newIsv"]>>;

beforeAll(async () => {
  api = await startTestApi({ worker: true });
  isv = await api.newIsv("Disputes in settlements ISV");
}, 120_000);
afterAll(() => api.close());

const post = (path: string, body?: unknown) => api.call("POST", path, { auth: isv.auth, body });

test("opened before the cutoff: taken; after: the next one; won: given back only after a settlement took it, once", async () => {
  const merchant = await approvedMerchant(api, isv);
  const settle = (cutoff: Date) => settleAll(api.db, cutoff, { merchantId: merchant.id });
  const paid = async (amount: number) => {
    const res = await payRequest(api, isv, merchant, amount);
    expect(res.status).toBe(200);
    return res.json.charge.id as string;
  };
  const late = await paid(10_000);
  const early = await paid(5_000);
  const t0 = Date.now();
  const at = (minutes: number) => new Date(t0 + minutes * 60_000);
  expect(await settle(at(0.01))).toHaveLength(1);

  // One dispute opened a minute on, another ten minutes on.
  const first = (await openDispute(api.db, early, "fraudulent", at(1)))!;
  const second = (await openDispute(api.db, late, "fraudulent", at(10)))!;
  expect(first.amount).toBe(5_000);
  expect(second.amount).toBe(10_000);
  const fee = first.fee;

  // Cutoff at 5 minutes: the first alone.
  const [s1, ...more1] = await settle(at(5));
  expect(more1).toEqual([]);
  expect(s1).toMatchObject({ disputeCount: 1, disputes: 5_000, disputeFees: fee, disputesWon: 0, net: -5_000 - fee });

  // The second is won before any settlement took it: nothing is given back yet (nor taken: it opened after 6 minutes).
  await post(`/v1/disputes/${second.id}`, { evidence: { uncategorized_text: "winning_evidence" } });
  expect((await post(`/v1/disputes/${second.id}/submit`)).status).toBe(200);
  await decideDispute(api.db, { dispute_id: second.id });
  expect((await api.call("GET", `/v1/disputes/${second.id}`, { auth: isv.auth })).json.status).toBe("won");
  // Won at 10.5 minutes (this test opened it in the future, so its decision is moved there too: a
  // dispute is never won before it was opened).
  await postingsAt(api.db, [second.id], ["dispute_won"], at(10.5));
  expect(await settle(at(6))).toEqual([]);

  // Cutoff at 11 minutes: its amount and fee taken, and its amount given back, in the same settlement.
  const [s2, ...more2] = await settle(at(11));
  expect(more2).toEqual([]);
  expect(s2).toMatchObject({
    disputeCount: 1,
    disputes: 10_000,
    disputeFees: fee,
    disputeWonCount: 1,
    disputesWon: 10_000,
    carriedIn: s1!.net,
    net: s1!.net - fee,
  });
  // Never again.
  expect(await settle(at(30))).toEqual([]);
  expect(await checkLedger(api.db, merchant.id)).toEqual([]);
}, 90_000);
