import { expect } from "vitest";

import { atTime } from "@/lib/clock-scope";
import { settleAll } from "@/lib/domain/settlements/run-settlement";
import { checkLedger } from "@/lib/ledger/check";

import type { TestApi } from "./api";
import { tokenize } from "./payments";

// The money tests' days (payout schedules, reserves): a paid scan-to-pay charge, and a day's
// settlement and payout run as the daily job runs them.

/** A scan-to-pay request of `amount` cents paid with the test card now: the charge AUTHORIZED. */
export async function payNow(
  api: TestApi,
  isv: { auth: string },
  merchant: { id: string; publishableKey: string },
  amount: number,
) {
  const pr = (await api.call("POST", "/v1/scan_to_pay", { auth: isv.auth, body: { merchant_id: merchant.id, amount } }))
    .json;
  const res = await api.call("POST", `/v1/payment_requests/${pr.id}/pay`, {
    body: { token: await tokenize(api, merchant.publishableKey) },
  });
  expect(res.json.charge.status).toBe("AUTHORIZED");
}

/** The day's settlement and payout run for one merchant, as the job runs them at 00:00 UTC of `day`; the ledger checked after. */
export async function runDay(api: TestApi, merchantId: string, day: string) {
  const at = new Date(`${day}T00:00:05Z`);
  const settled = await atTime(at, () => settleAll(api.db, at, { merchantId }));
  expect(await checkLedger(api.db, merchantId)).toEqual([]);
  return settled;
}
