import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";

import { charges, merchantBills, merchants, statements } from "@/lib/db/schema";
import { billMonth } from "@/lib/domain/statements/bill-month";
import { periodOf } from "@/lib/domain/statements/figures";
import { runBilling } from "@/lib/domain/statements/run-statements";
import { checkLedger } from "@/lib/ledger/check";

import { startTestApi, type TestApi } from "../helpers/api";
import { postingsAt } from "../helpers/ledger";
import { approvedMerchant, tokenize } from "../helpers/payments";

// The month-end bill (docs/reference.md section 13): a job charges the month-end fees once a month
// has ended, posted with the bill; the statement only reads it and shares its id, so the fees'
// balance transactions name the statement. The ledger check holds the bill to its postings and the
// statement's fees to its month.

let api: TestApi;
let isv: Awaited<ReturnType<TestApi["newIsv"]>>;
let merchant: Awaited<ReturnType<typeof approvedMerchant>>;

beforeAll(async () => {
  api = await startTestApi({ worker: true });
  isv = await api.newIsv("Billing ISV");
  merchant = await approvedMerchant(api, isv);
}, 120_000);
afterAll(() => api.close());

const post = (path: string, body: unknown) => api.call("POST", path, { auth: isv.auth, body });
const get = (path: string) => api.call("GET", path, { auth: isv.auth });

async function payAt(iso: string, amount: number, bank = false) {
  const pr = (
    await post(bank ? "/v1/invoice" : "/v1/scan_to_pay", {
      merchant_id: merchant.id,
      amount,
      ...(bank ? { send_via: "none" } : {}),
    })
  ).json;
  const token = bank
    ? (
        await api.call("POST", "/v1/tokens", {
          auth: `Bearer ${merchant.publishableKey}`,
          body: {
            bank_account: {
              routing_number: "021000021",
              account_number: "000123456789",
              account_holder_name: "Ana Ruiz",
              account_type: "checking",
            },
          },
        })
      ).json.id
    : await tokenize(api, merchant.publishableKey);
  const res = await api.call("POST", `/v1/payment_requests/${pr.id}/pay`, {
    body: bank ? { token, ach_authorization: { accepted: true } } : { token },
  });
  expect(res.json.charge.status).toBe("AUTHORIZED");
  const id = res.json.charge.id as string;
  await api.db
    .update(charges)
    .set({ createdAt: new Date(iso), capturedAt: new Date(iso) })
    .where(eq(charges.id, id));
  await postingsAt(api.db, [id], ["charge"], new Date(iso));
  return id;
}

const merchantRow = async () => (await api.db.select().from(merchants).where(eq(merchants.id, merchant.id)))[0]!;

/** The merchant's month-end fees as balance transactions: [source, amount, description]. */
const monthlyFees = async () =>
  (
    (await get(`/v1/balance_transactions?merchant_id=${merchant.id}&type=monthly_fee&limit=100`)).json.data as {
      source: string;
      amount: number;
      description: string;
    }[]
  )
    .map((t) => [t.source, t.amount, t.description])
    .sort();
const billRow = async (period: string) =>
  (
    await api.db
      .select()
      .from(merchantBills)
      .where(and(eq(merchantBills.merchantId, merchant.id), eq(merchantBills.period, period)))
  )[0];

describe("month-end billing", () => {
  test("the job bills a finished month once; the statement reads the bill, shares its id and posts nothing", async () => {
    await payAt("2026-10-05T12:00:00.000Z", 10_000);
    await payAt("2026-10-06T12:00:00.000Z", 3_000, true);
    await payAt("2026-10-07T12:00:00.000Z", 2_000, true);

    await runBilling(api.db, { period: "2026-10" });
    const bill = (await billRow("2026-10"))!;
    // Two days with ACH debits ($0.10 each), the ACH monthly fee ($10.00).
    expect(bill.lines).toEqual([
      { kind: "ach_activity", model: "ach", description: "ACH daily batch fee", count: 2, amount: 20 },
      { kind: "monthly", model: "ach", description: "ACH monthly fee", count: 1, amount: 1_000 },
    ]);
    expect(bill.total).toBe(1_020);
    expect(bill.id).toMatch(/^stmt_/);
    const fees = [
      [bill.id, -20, "ACH daily batch fee, 2026-10"],
      [bill.id, -1_000, "ACH monthly fee, 2026-10"],
    ].sort();
    expect(await monthlyFees()).toEqual(fees);
    // No statement yet: the bill is the job's, not the statement's.
    expect(await api.db.select().from(statements).where(eq(statements.merchantId, merchant.id))).toEqual([]);

    // Run again (a retried job, a second instance): nothing more is charged.
    await runBilling(api.db, { period: "2026-10" });
    expect(await billMonth(api.db, await merchantRow(), "2026-10")).toEqual(bill);
    expect(await monthlyFees()).toEqual(fees);

    // The statement reads the bill: its month-end lines and net are the bill's; its id is the bill's.
    const statement = (
      await post("/v1/test_helpers/statements/generate", { merchant_id: merchant.id, period: "2026-10" })
    ).json;
    expect(statement.id).toBe(bill.id);
    const detail = (await get(`/v1/statements/${merchant.id}/${statement.id}`)).json;
    expect(detail.fee_lines.filter((l: { kind: string }) => l.kind !== "processing")).toEqual(bill.lines);
    expect(await monthlyFees()).toEqual(fees);
    expect(await checkLedger(api.db, merchant.id)).toEqual([]);
  }, 60_000);

  test("a statement made before the job ran bills its month first (once); an unfinished month is never billed", async () => {
    await payAt("2026-09-10T12:00:00.000Z", 4_000, true);
    const before = await monthlyFees();
    const statement = (
      await post("/v1/test_helpers/statements/generate", { merchant_id: merchant.id, period: "2026-09" })
    ).json;
    const bill = (await billRow("2026-09"))!;
    expect(bill.id).toBe(statement.id);
    expect(bill.total).toBe(10 + 1_000);
    const after = await monthlyFees();
    expect(after.length).toBe(before.length + 2);
    expect(after.filter(([source]) => source === statement.id).map(([, amount]) => amount)).toEqual(
      [-10, -1_000].sort(),
    );
    await runBilling(api.db, { period: "2026-09" });
    expect(await monthlyFees()).toEqual(after);

    // This month is not over: no bill, nothing posted.
    const thisMonth = periodOf(new Date());
    await payAt(new Date().toISOString(), 1_000, true);
    expect(await billMonth(api.db, await merchantRow(), thisMonth)).toBeNull();
    expect(await billRow(thisMonth)).toBeUndefined();
    expect(await monthlyFees()).toEqual(after);
    expect(await checkLedger(api.db, merchant.id)).toEqual([]);
  }, 60_000);

  test("the ledger check holds a bill to its postings and a final statement's fees and net to its month", async () => {
    const bill = (await billRow("2026-10"))!;
    try {
      await api.db
        .update(merchantBills)
        .set({ total: bill.total + 1 })
        .where(eq(merchantBills.id, bill.id));
      expect(
        (await checkLedger(api.db, merchant.id)).map((v) => [v.invariant, v.id, v.expected, v.actual]).sort(),
      ).toEqual(
        [
          ["bill_is_its_postings", bill.id, bill.total + 1, bill.total],
          ["statement_equals_its_period", bill.id, expect.any(Number), expect.any(Number)],
          ["statement_fees_are_its_period", bill.id, expect.any(Number), expect.any(Number)],
        ].sort(),
      );
    } finally {
      await api.db.update(merchantBills).set({ total: bill.total }).where(eq(merchantBills.id, bill.id));
    }
    const [statement] = await api.db.select().from(statements).where(eq(statements.id, bill.id));
    try {
      await api.db
        .update(statements)
        .set({ fees: statement!.fees - 20 })
        .where(eq(statements.id, bill.id));
      expect(await checkLedger(api.db, merchant.id)).toEqual([
        {
          invariant: "statement_fees_are_its_period",
          id: bill.id,
          expected: statement!.fees - 20,
          actual: statement!.fees,
        },
      ]);
    } finally {
      await api.db.update(statements).set({ fees: statement!.fees }).where(eq(statements.id, bill.id));
    }
    expect(await checkLedger(api.db, merchant.id)).toEqual([]);
  });
});
