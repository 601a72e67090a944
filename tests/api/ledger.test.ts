import { and, eq, inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";

import { charges, payouts, refunds, statements } from "@/lib/db/schema";
import { applyAchMove } from "@/lib/domain/settlements/ach-returns";
import { settleAll } from "@/lib/domain/settlements/run-settlement";
import { runStatements } from "@/lib/domain/statements/run-statements";
import { checkLedger } from "@/lib/ledger/check";
import { postAchReturn } from "@/lib/ledger/payment-movements";

import { startTestApi, type TestApi } from "../helpers/api";
import { postingsAt, settlementThatTook, sourcesTakenBy } from "../helpers/ledger";
import { approvedMerchant, tokenize } from "../helpers/payments";
import { until } from "../helpers/until";

// A ledger of four days across a month's end (docs/reference.md section 13), settled night by night
// and stated month by month, every figure worked by hand below. It is the money path's long test:
// refunds before and at a cutoff, ACH debits returned (one reversed before any settlement took it
// back, one after), a late return of a partly refunded debit, and runs that must not take anything
// twice. The ACH answers come from the sandbox processor through the worker's own jobs; each answer's
// time is then set to its day in the ledger (the jobs stamp "now").
//
// Fees (flat rate 2.90 % + $0.30 for Visa credit; ACH 0.50 % + $0.25, half up):
//   C1 card 100.00 → 3.20 · C2 card 50.00 → 1.75 · C3 card 20.00 → 0.88 · C4 card 10.00 → 0.59
//   A1 ACH 40.00 → 0.45 · A2 ACH 25.00 → 0.375 → 0.38 · A3 ACH 30.00 → 0.40 · A4 ACH 20.00 → 0.35

let api: TestApi;
let isv: Awaited<ReturnType<TestApi["newIsv"]>>;
let merchant: Awaited<ReturnType<typeof approvedMerchant>>;

beforeAll(async () => {
  api = await startTestApi({ worker: true });
  isv = await api.newIsv("Ledger ISV");
  merchant = await approvedMerchant(api, isv);
}, 120_000);
afterAll(() => api.close());

const post = (path: string, body: unknown) => api.call("POST", path, { auth: isv.auth, body });
const get = (path: string) => api.call("GET", path, { auth: isv.auth });
const utc = (iso: string) => new Date(iso);

async function payByCard(amount: number) {
  const pr = (await post("/v1/scan_to_pay", { merchant_id: merchant.id, amount })).json;
  const res = await api.call("POST", `/v1/payment_requests/${pr.id}/pay`, {
    body: { token: await tokenize(api, merchant.publishableKey) },
  });
  expect(res.json.charge.status).toBe("AUTHORIZED");
  return res.json.charge.id as string;
}
async function payByBank(amount: number, account: string) {
  const pr = (await post("/v1/invoice", { merchant_id: merchant.id, amount, sendVia: "none" })).json;
  const token = (
    await api.call("POST", "/v1/tokens", {
      auth: `Bearer ${merchant.publishableKey}`,
      body: {
        bank_account: {
          routing_number: "021000021",
          account_number: account,
          account_holder_name: "Ana Ruiz",
          account_type: "checking",
        },
      },
    })
  ).json.id;
  const res = await api.call("POST", `/v1/payment_requests/${pr.id}/pay`, {
    body: { token, ach_authorization: { accepted: true } },
  });
  expect(res.json.charge.status).toBe("AUTHORIZED");
  return res.json.charge.id as string;
}
/** A charge made at `iso` (its creation and capture). */
async function chargeAt(id: string, iso: string) {
  await api.db
    .update(charges)
    .set({ createdAt: utc(iso), capturedAt: utc(iso) })
    .where(eq(charges.id, id));
  await postingsAt(api.db, [id], ["charge"], utc(iso));
}
async function refundAt(chargeId: string, amount: number, iso: string) {
  const res = await post("/v1/refunds", { charge_id: chargeId, amount });
  expect(res.status).toBe(200);
  await api.db
    .update(refunds)
    .set({ createdAt: utc(iso) })
    .where(eq(refunds.id, res.json.id));
  await postingsAt(api.db, [res.json.id], ["refund"], utc(iso));
  return res.json.id as string;
}
const chargeRow = async (id: string) => (await api.db.select().from(charges).where(eq(charges.id, id)))[0]!;
const settle = async (cutoff: string) => settleAll(api.db, utc(cutoff), { merchantId: merchant.id });
const lineIds = async (settlementId: string) =>
  ((await get(`/v1/settlements/${settlementId}/charges?limit=100`)).json.data as { id: string }[])
    .map((c) => c.id)
    .sort();
const refundIds = async (settlementId: string) => sourcesTakenBy(api.db, settlementId, "refund");

describe("a four-day ledger across a month's end", () => {
  test("each night's settlement and each month's statement hold the hand-worked figures; nothing is taken or paid twice", async () => {
    // ── Friday 27 February 2026 ──
    const c1 = await payByCard(10_000);
    await chargeAt(c1, "2026-02-27T10:00:00.000Z");
    const a1 = await payByBank(4_000, "000222222227"); // the sandbox returns it
    await chargeAt(a1, "2026-02-27T10:05:00.000Z");
    const a2 = await payByBank(2_500, "000333333335"); // returned, then the return reversed
    await chargeAt(a2, "2026-02-27T10:10:00.000Z");
    const a3 = await payByBank(3_000, "000123456789"); // clears
    await chargeAt(a3, "2026-02-27T10:15:00.000Z");
    const r1 = await refundAt(c1, 1_000, "2026-02-27T15:00:00.000Z");
    const c2 = await payByCard(5_000);
    await chargeAt(c2, "2026-02-27T23:59:59.999Z"); // the day's last instant: tonight's
    // At the cutoff itself: tomorrow's.
    const c3 = await payByCard(2_000);
    await chargeAt(c3, "2026-02-28T00:00:00.000Z");
    const r2 = await refundAt(c2, 500, "2026-02-28T00:00:00.000Z");

    // ── Run 1, cutoff 28 Feb 00:00 ──
    const [s1, ...more1] = await settle("2026-02-28T00:00:00.000Z");
    expect(more1).toEqual([]);
    expect(s1).toMatchObject({
      chargeCount: 5,
      gross: 10_000 + 4_000 + 2_500 + 3_000 + 5_000,
      fees: 320 + 45 + 38 + 40 + 175,
      refundCount: 1,
      refunds: 1_000,
      returnCount: 0,
      returns: 0,
      reversalCount: 0,
      reversals: 0,
      net: 24_500 - 1_000 - 618,
    });
    expect(await lineIds(s1!.id)).toEqual([c1, a1, a2, a3, c2].sort());
    expect(await refundIds(s1!.id)).toEqual([r1]);
    expect((await chargeRow(c3)).status).toBe("AUTHORIZED");
    expect(await settlementThatTook(api.db, "refund", r2)).toBeNull();

    // ── Saturday 28 February ── the banks answer for run 1's debits (the worker's ach_returns job,
    // then its reversal job): A1 and A2 returned at 09:00, A3 cleared, A2's return reversed at 12:00,
    // before any settlement took it back.
    await until(
      async () => [await chargeRow(a1), await chargeRow(a2), await chargeRow(a3)],
      ([x, y, z]) => x!.status === "RETURNED" && y!.returnedAt !== null && z!.achClearedAt !== null,
      20_000,
      "run 1's return check",
    );
    await api.db
      .update(charges)
      .set({ returnedAt: utc("2026-02-28T09:00:00.000Z") })
      .where(inArray(charges.id, [a1, a2]));
    await postingsAt(api.db, [a1, a2], ["ach_return"], utc("2026-02-28T09:00:00.000Z"));
    await until(
      () => chargeRow(a2),
      (c) => c.status === "SETTLED" && c.returnReversedAt !== null,
      20_000,
      "A2's reversal",
    );
    await api.db
      .update(charges)
      .set({ returnReversedAt: utc("2026-02-28T12:00:00.000Z") })
      .where(eq(charges.id, a2));
    await postingsAt(api.db, [a2], ["ach_return_reversal"], utc("2026-02-28T12:00:00.000Z"));
    const a4 = await payByBank(2_000, "000333333335");
    await chargeAt(a4, "2026-02-28T14:00:00.000Z");
    const r3 = await refundAt(a3, 1_000, "2026-02-28T16:00:00.000Z"); // A3 cleared: refundable

    // ── Run 2, cutoff 1 Mar 00:00 ── C3 and A4; R2 (made at the last cutoff) and R3; A1's return taken
    // back; A2 neither taken back nor paid back (its return was reversed before any run took it).
    const [s2, ...more2] = await settle("2026-03-01T00:00:00.000Z");
    expect(more2).toEqual([]);
    expect(s2).toMatchObject({
      chargeCount: 2,
      gross: 2_000 + 2_000,
      fees: 88 + 35,
      refundCount: 2,
      refunds: 500 + 1_000,
      returnCount: 1,
      returns: 4_000,
      reversalCount: 0,
      reversals: 0,
      net: 4_000 - 1_500 - 4_000 - 123,
    });
    expect(await lineIds(s2!.id)).toEqual([c3, a4].sort());
    expect(await refundIds(s2!.id)).toEqual([r2, r3].sort());
    expect(await settlementThatTook(api.db, "ach_return", a1)).toBe(s2!.id);
    // A2's return and its reversal went together (they cancel: no line, no count).
    expect(await settlementThatTook(api.db, "ach_return", a2)).toBe(s2!.id);
    expect(await settlementThatTook(api.db, "ach_return_reversal", a2)).toBe(s2!.id);

    // ── Sunday 1 March ── A4 returned (09:00, run 2's check); A3, cleared and refunded $10.00, comes
    // back late (an unauthorized-debit return, R10, can arrive weeks later: made here as the
    // processor's callback would make it): only the $20.00 the merchant still holds is taken back.
    const c4 = await payByCard(1_000);
    await chargeAt(c4, "2026-03-01T00:00:00.000Z");
    await until(
      () => chargeRow(a4),
      (c) => c.status === "RETURNED",
      20_000,
      "A4's return",
    );
    await api.db
      .update(charges)
      .set({ returnedAt: utc("2026-03-01T09:00:00.000Z") })
      .where(eq(charges.id, a4));
    await postingsAt(api.db, [a4], ["ach_return"], utc("2026-03-01T09:00:00.000Z"));
    await applyAchMove(api.db, a3, "returnCharge", {
      returnedAt: utc("2026-03-01T10:00:00.000Z"),
      failureReason: "unauthorized_debit",
    });
    const r4 = await refundAt(c2, 700, "2026-03-01T11:00:00.000Z"); // a February charge refunded in March

    // ── Run 3, cutoff 2 Mar 00:00 ── C4, R4, and the returns of A4 (20.00) and A3 (30.00 − 10.00); A1
    // is not taken again.
    const [s3, ...more3] = await settle("2026-03-02T00:00:00.000Z");
    expect(more3).toEqual([]);
    expect(s3).toMatchObject({
      chargeCount: 1,
      gross: 1_000,
      fees: 59,
      refundCount: 1,
      refunds: 700,
      returnCount: 2,
      returns: 2_000 + 2_000,
      reversalCount: 0,
      reversals: 0,
      // Run 2's negative net (-16.23) is carried into this one.
      carriedIn: -1_623,
      net: 1_000 - 700 - 4_000 - 59 - 1_623,
    });
    expect(await lineIds(s3!.id)).toEqual([c4]);
    expect(await refundIds(s3!.id)).toEqual([r4]);
    expect(await settlementThatTook(api.db, "ach_return", a1)).toBe(s2!.id);
    expect(await settlementThatTook(api.db, "ach_return", a3)).toBe(s3!.id);
    expect(await chargeRow(a3)).toMatchObject({ amountRefunded: 1_000 });

    // ── Monday 2 March ── the bank reverses A4's return (run 2's reversal check), at 09:00.
    await until(
      () => chargeRow(a4),
      (c) => c.status === "SETTLED",
      20_000,
      "A4's reversal",
    );
    await api.db
      .update(charges)
      .set({ returnReversedAt: utc("2026-03-02T09:00:00.000Z") })
      .where(eq(charges.id, a4));
    await postingsAt(api.db, [a4], ["ach_return_reversal"], utc("2026-03-02T09:00:00.000Z"));

    // ── Run 4, cutoff 3 Mar 00:00 ── A4 paid back, once; nothing else.
    const [s4, ...more4] = await settle("2026-03-03T00:00:00.000Z");
    expect(more4).toEqual([]);
    expect(s4).toMatchObject({
      chargeCount: 0,
      gross: 0,
      fees: 0,
      refundCount: 0,
      refunds: 0,
      returnCount: 0,
      returns: 0,
      reversalCount: 1,
      reversals: 2_000,
      carriedIn: -5_382,
      net: 2_000 - 5_382,
    });
    expect(await settlementThatTook(api.db, "ach_return", a4)).toBe(s3!.id);
    expect(await settlementThatTook(api.db, "ach_return_reversal", a4)).toBe(s4!.id);
    // ── Run 5 ── nothing left: no settlement.
    expect(await settle("2026-03-04T00:00:00.000Z")).toEqual([]);
    // What the merchant was paid over the four nights: every charge less its fee and refunds, less
    // what the banks kept (A1 and A3's remaining $20.00); A2 and A4 came back.
    // Paid out: run 1's net alone (runs 2 to 4 were negative, each carried into the next); still owed
    // by the merchant, carried into its next settlement: run 4's net. Together, to the cent:
    const fees = 320 + 45 + 38 + 40 + 175 + 88 + 35 + 59;
    const made = await api.db.select().from(payouts).where(eq(payouts.merchantId, merchant.id));
    expect(made.map((p) => [p.settlementId, p.amount])).toEqual([[s1!.id, s1!.net]]);
    expect(s1!.net + s4!.net).toBe(10_000 + 5_000 + 2_000 + 1_000 + 2_500 + 2_000 - (1_000 + 500 + 700) - fees);

    // ── The statements ── February: every charge captured from 1 Feb 00:00 to 28 Feb 23:59:59.999
    // (C3 at 28 Feb 00:00 included, C4 at 1 Mar 00:00 not), the refunds made in February, A1 and A2's
    // returns and A2's reversal. March: C4, R4 (a February charge's refund), A4 and A3's returns, A4's
    // reversal.
    const feb = (await post("/v1/test_helpers/statements/generate", { merchant_id: merchant.id, period: "2026-02" }))
      .json;
    const febProcessing = 320 + 45 + 38 + 40 + 175 + 88 + 35;
    expect(feb).toMatchObject({
      charge_count: 7,
      gross_volume: 10_000 + 4_000 + 2_500 + 3_000 + 5_000 + 2_000 + 2_000,
      refund_count: 3,
      refunds: 1_000 + 500 + 1_000,
      return_count: 2,
      returns: 4_000 + 2_500,
      reversal_count: 1,
      reversals: 2_500,
    });
    const febDetail = (await get(`/v1/statements/${merchant.id}/${feb.id}`)).json;
    // ACH: $5.00 per return (2), $5.00 per reversal (1), $0.10 per day with ACH debits (27 and 28), $10.00 a month.
    expect(febDetail.fee_lines.filter((l: any) => l.kind !== "processing")).toEqual([
      { kind: "ach_activity", model: "ach", description: "ACH return fee", count: 2, amount: 1_000 },
      { kind: "ach_activity", model: "ach", description: "ACH return reversal fee", count: 1, amount: 500 },
      { kind: "ach_activity", model: "ach", description: "ACH daily batch fee", count: 2, amount: 20 },
      { kind: "monthly", model: "ach", description: "ACH monthly fee", count: 1, amount: 1_000 },
    ]);
    expect(febDetail.fees).toBe(febProcessing + 1_000 + 500 + 20 + 1_000);
    expect(febDetail.net).toBe(28_500 - 2_500 - 6_500 + 2_500 - febDetail.fees);
    const csv = await fetch(`${api.baseUrl}/v1/statements/${merchant.id}/download/${feb.id}?format=csv`, {
      headers: { authorization: isv.auth },
    });
    const rows = (await csv.text()).trim().split("\n").slice(1);
    expect(
      rows
        .filter((r) => !r.startsWith("fee,"))
        .map((r) => r.split(",").slice(0, 2).join(" "))
        .sort(),
    ).toEqual(
      [
        ...[c1, a1, a2, a3, c2, c3, a4].map((id) => `charge ${id}`),
        ...[r1, r2, r3].map((id) => `refund ${id}`),
        `return ${a1}`,
        `return ${a2}`,
        `return_reversal ${a2}`,
      ].sort(),
    );

    const mar = (await post("/v1/test_helpers/statements/generate", { merchant_id: merchant.id, period: "2026-03" }))
      .json;
    expect(mar).toMatchObject({
      charge_count: 1,
      gross_volume: 1_000,
      refund_count: 1,
      refunds: 700,
      return_count: 2,
      returns: 2_000 + 2_000,
      reversal_count: 1,
      reversals: 2_000,
    });
    const marDetail = (await get(`/v1/statements/${merchant.id}/${mar.id}`)).json;
    // No ACH debit made in March: no batch fee.
    expect(marDetail.fee_lines).toEqual([
      { kind: "processing", model: "flat_rate", description: expect.any(String), count: 1, amount: 59 },
      { kind: "ach_activity", model: "ach", description: "ACH return fee", count: 2, amount: 1_000 },
      { kind: "ach_activity", model: "ach", description: "ACH return reversal fee", count: 1, amount: 500 },
      { kind: "monthly", model: "ach", description: "ACH monthly fee", count: 1, amount: 1_000 },
    ]);
    expect(marDetail.net).toBe(1_000 - 700 - 4_000 + 2_000 - (59 + 1_000 + 500 + 1_000));
    // Daily totals: each day's charges on its own date, the boundaries on the right side.
    expect(febDetail.daily_totals).toEqual([
      { date: "2026-02-27", charges: 5, volume: 24_500, refunds: 1_000, returns: 0, fees: 618 },
      // R2 at 00:00 and R3; A1 and A2 returned (09:00), A2's return reversed (12:00).
      { date: "2026-02-28", charges: 2, volume: 4_000, refunds: 1_500, returns: 4_000 + 2_500 - 2_500, fees: 123 },
    ]);
    expect(marDetail.daily_totals).toEqual([
      { date: "2026-03-01", charges: 1, volume: 1_000, refunds: 700, returns: 2_000 + 2_000, fees: 59 },
      { date: "2026-03-02", charges: 0, volume: 0, refunds: 0, returns: -2_000, fees: 0 },
    ]);
    // Every document of a statement adds up to the same net: the JSON, the CSV's net column.
    for (const detail of [febDetail, marDetail]) {
      const csvRows = (
        await (
          await fetch(`${api.baseUrl}/v1/statements/${merchant.id}/download/${detail.id}?format=csv`, {
            headers: { authorization: isv.auth },
          })
        ).text()
      )
        .trim()
        .split("\n")
        .slice(1)
        .map((r) => r.split(","));
      const cents = (d: string) => Math.round(Number(d) * 100);
      expect(csvRows.reduce((sum, r) => sum + cents(r[6]!), 0)).toBe(detail.net);
      expect(csvRows.reduce((sum, r) => sum + cents(r[5]!), 0)).toBe(detail.fees);
      expect(detail.final).toBe(true);
    }

    // ── The month-end fees ── each final statement's ACH activity and monthly fee lines are balance
    // transactions (`monthly_fee`, from the statement), written once, and the next settlement takes them.
    const monthEndLines = (detail: { id: string; period: string; fee_lines: { kind: string }[] }) =>
      (detail.fee_lines as { kind: string; description: string; amount: number }[])
        .filter((l) => l.kind === "ach_activity" || l.kind === "monthly")
        .map((l) => [detail.id, -l.amount, `${l.description}, ${detail.period}`]);
    const expected = [...monthEndLines(febDetail), ...monthEndLines(marDetail)];
    const monthlyFees = async () =>
      (
        (await get(`/v1/balance_transactions?merchant_id=${merchant.id}&type=monthly_fee&limit=100`)).json.data as {
          source: string;
          amount: number;
          description: string;
          status: string;
        }[]
      ).map((t) => [t.source, t.amount, t.description]);
    expect((await monthlyFees()).sort()).toEqual([...expected].sort());
    // Asked again: a final statement takes nothing more.
    await post("/v1/test_helpers/statements/generate", { merchant_id: merchant.id, period: "2026-02" });
    expect(await monthlyFees()).toHaveLength(expected.length);
    const taken = expected.reduce((sum, [, amount]) => sum - (amount as number), 0);
    expect(taken).toBe(1_000 + 500 + 20 + 1_000 + (1_000 + 500 + 1_000));
    const later = new Date(Date.now() + 60_000).toISOString();
    const [s5, ...more5] = await settle(later);
    expect(more5).toEqual([]);
    expect(s5).toMatchObject({ chargeCount: 0, gross: 0, fees: taken, carriedIn: s4!.net, net: s4!.net - taken });
    expect(await settle(new Date(Date.now() + 120_000).toISOString())).toEqual([]);
    expect(await checkLedger(api.db, merchant.id)).toEqual([]);
  }, 120_000);

  test("the monthly run states a merchant whose only activity in the month is an ACH return or its reversal", async () => {
    // Everything of this merchant in April 2026 is one January debit's late return: no charge, no refund.
    const returned = await payByBank(1_200, "000123456789");
    await chargeAt(returned, "2026-01-10T10:00:00.000Z");
    const [late] = await api.db
      .update(charges)
      .set({ status: "RETURNED", returnedAt: utc("2026-04-03T10:00:00.000Z") })
      .where(eq(charges.id, returned))
      .returning();
    await postAchReturn(api.db, late!, 1_200); // as the processor's answer would (its charge was never settled here)
    await runStatements(api.db, { period: "2026-04" });
    const [april] = await api.db
      .select()
      .from(statements)
      .where(and(eq(statements.period, "2026-04"), eq(statements.merchantId, merchant.id)));
    expect(april).toMatchObject({ merchantId: merchant.id, chargeCount: 0, returnCount: 1, returns: 1_200 });
  }, 60_000);
});

test("the ledger's invariants hold after every test above (docs/reference.md section 18)", async () => {
  expect(await checkLedger(api.db)).toEqual([]);
});
