import { describe, expect, test } from "vitest";

import type { ChargeRow, DisputeRow, RefundRow } from "../../db/schema";
import {
  achReturnPosting,
  chargePosting,
  disputePostings,
  disputeWonPosting,
  refundPosting,
} from "../../ledger/payment-movements";
import { type Posting } from "../../ledger/post";
import { monthEndFeeLines, type Pricing } from "../fees/month-end-fees";
import {
  type MonthActivity,
  monthEndActivity,
  periodOf,
  periodRange,
  statementFigures as figuresOf,
  type StatementPosting,
} from "./figures";

// A statement's figures by hand (tests/api/statements.test.ts holds the same rules on a real database).

/** A month's rows, as the statement is given them: the postings the ledger writes for them (lib/ledger/payment-movements.ts). */
type Rows = {
  charges: ChargeRow[];
  refunds: RefundRow[];
  returns: ChargeRow[];
  reversals: ChargeRow[];
  disputesOpened?: DisputeRow[];
  disputesWon?: DisputeRow[];
};
function monthOf(rows: Rows): MonthActivity {
  let n = 0;
  // As lib/ledger/post.ts writes it: a posting that moves nothing is not written.
  const posted = (p: Posting | null): StatementPosting[] =>
    p && p.entries.some((e) => e.amount !== 0)
      ? [
          {
            id: `txn_${++n}`,
            type: p.type,
            sourceId: p.sourceId,
            amount: p.amount,
            fee: p.fee ?? 0,
            net: p.amount - (p.fee ?? 0),
            createdAt: p.createdAt!,
          },
        ]
      : [];
  const held = (c: ChargeRow) => c.amountCaptured - c.amountRefunded;
  const charged = rows.charges.map((c) => ({ ...c, createdAt: c.capturedAt! }));
  const postings = [
    ...charged.flatMap((c) => posted(chargePosting(c))),
    ...rows.refunds.flatMap((r) => posted(refundPosting(r, { paymentMethod: "card" }))),
    ...rows.returns.flatMap((c) => posted(achReturnPosting(c, held(c)))),
    ...rows.reversals.flatMap((c) => posted(achReturnPosting(c, held(c), true))),
    ...(rows.disputesOpened ?? []).flatMap((d) => disputePostings(d).flatMap(posted)),
    ...(rows.disputesWon ?? []).flatMap((d) => posted(disputeWonPosting(d))),
  ];
  return {
    postings,
    charges: new Map([...charged, ...rows.returns, ...rows.reversals].map((c) => [c.id, c])),
    refunds: new Map(rows.refunds.map((r) => [r.id, r])),
    disputes: new Map([...(rows.disputesOpened ?? []), ...(rows.disputesWon ?? [])].map((d) => [d.id, d])),
  };
}
/** The figures of a month whose bill is what its activity and pricing charge (./bill-month.ts bills it so). */
const statementFigures = (pricing: Pricing, rows: Rows) => {
  const month = monthOf(rows);
  return figuresOf(month, monthEndFeeLines(pricing, monthEndActivity(month)));
};

const pricing = {
  application: { capabilities: { types: ["flat_rate", "ach"] }, fees: { monthly: { minimum_processing_fee: 25 } } },
  defaultCapabilities: {
    types: ["flat_rate"],
    options: {
      ach: {
        monthly_fee: "10.00",
        return_fee_fixed: "5.00",
        return_reversal_fee: "2.505",
        daily_batch_fee: "0.10",
      },
    },
  },
} as never;

let seq = 0;
function charge(over: Partial<ChargeRow>): ChargeRow {
  seq++;
  return {
    id: `ch_${seq}`,
    seq,
    amountCaptured: 1_000,
    amountRefunded: 0,
    fee: 59,
    feeDetails: [{ type: "processing", model: "flat_rate", rate_bps: 290, fixed: 30, amount: 59, description: "Card" }],
    paymentMethod: "card",
    cardBrand: "visa",
    cardLast4: "4242",
    cardEntryMethod: "MANUAL",
    capturedAt: new Date("2026-02-10T10:00:00Z"),
    returnedAt: null,
    returnReversedAt: null,
    ach: null,
    ...over,
  } as ChargeRow;
}
const refund = (id: string, chargeId: string, amount: number, at: string) =>
  ({ id, chargeId, amount, createdAt: new Date(at) }) as RefundRow;

describe("the period", () => {
  test("a month's bounds: its first instant, and the next month's first (exclusive)", () => {
    expect(periodRange("2026-02")).toEqual({
      start: new Date("2026-02-01T00:00:00.000Z"),
      end: new Date("2026-03-01T00:00:00.000Z"),
    });
    expect(periodRange("2024-02").end).toEqual(new Date("2024-03-01T00:00:00.000Z"));
    expect(periodRange("2026-12")).toEqual({
      start: new Date("2026-12-01T00:00:00.000Z"),
      end: new Date("2027-01-01T00:00:00.000Z"),
    });
    expect(periodOf(new Date("2026-02-28T23:59:59.999Z"))).toBe("2026-02");
    expect(periodOf(new Date("2026-03-01T00:00:00.000Z"))).toBe("2026-03");
  });
  test.each(["2026-13", "2026-00", "2026-2", "26-02", "2026-02-01", "", "x2026-02", "2026-02x", "12026-02"])(
    "%j is refused, naming period",
    (bad) => {
      expect(() => periodRange(bad)).toThrow(
        expect.objectContaining({ param: "period", message: "period must be a month written YYYY-MM" }),
      );
    },
  );
});

describe("statement figures", () => {
  test("totals, fee lines (processing, ACH activity, monthly, the minimum's top-up), brands, days and items", () => {
    const card1 = charge({
      amountCaptured: 10_000,
      fee: 320,
      feeDetails: [
        { type: "processing", model: "flat_rate", rate_bps: 290, fixed: 30, amount: 320, description: "Card" },
      ] as never,
      capturedAt: new Date("2026-02-27T10:00:00Z"),
      amountRefunded: 1_000,
    });
    const amex = charge({
      amountCaptured: 2_000,
      fee: 100,
      cardBrand: "amex",
      feeDetails: [
        { type: "processing", model: "flat_rate", rate_bps: 350, fixed: 30, amount: 100, description: "Amex" },
      ] as never,
      capturedAt: new Date("2026-02-28T23:59:59.999Z"),
    });
    const achDebit = (amount: number, fee: number, at: string, over: Partial<ChargeRow> = {}) =>
      charge({
        amountCaptured: amount,
        fee,
        paymentMethod: "ach",
        cardBrand: null,
        cardLast4: null,
        cardEntryMethod: null as never,
        ach: { last4: "6789" } as never,
        feeDetails: [
          { type: "processing", model: "ach", rate_bps: 50, fixed: 25, amount: fee, description: "ACH" },
        ] as never,
        capturedAt: new Date(at),
        ...over,
      });
    const a1 = achDebit(4_000, 45, "2026-02-27T10:05:00Z");
    const a2 = achDebit(3_000, 40, "2026-02-27T11:00:00Z", {
      amountRefunded: 1_000,
      returnedAt: new Date("2026-02-28T09:00:00Z"),
    });
    const old = achDebit(2_500, 38, "2026-01-20T10:00:00Z", {
      returnedAt: new Date("2026-01-25T09:00:00Z"),
      returnReversedAt: new Date("2026-02-03T12:00:00Z"),
    });
    const figures = statementFigures(pricing, {
      charges: [card1, a1, a2, amex],
      refunds: [
        refund("re_1", card1.id, 1_000, "2026-02-27T15:00:00Z"),
        refund("re_2", "ch_january", 700, "2026-02-01T00:00:00Z"),
      ],
      returns: [a2],
      reversals: [old],
    });
    const processing = 320 + 45 + 40 + 100;
    expect(figures).toMatchObject({
      chargeCount: 4,
      grossVolume: 19_000,
      refundCount: 2,
      refunds: 1_700,
      returnCount: 1,
      returns: 2_000, // what was still held of A2 (3,000 less its 1,000 refund)
      reversalCount: 1,
      reversals: 2_500,
    });
    expect(figures.feeLines).toEqual([
      { kind: "processing", model: "flat_rate", description: "Card", count: 1, amount: 320 },
      { kind: "processing", model: "ach", description: "ACH", count: 2, amount: 85 },
      { kind: "processing", model: "flat_rate", description: "Amex", count: 1, amount: 100 },
      { kind: "ach_activity", model: "ach", description: "ACH return fee", count: 1, amount: 500 },
      // 2.505 dollars to the cent, half up: 251.
      { kind: "ach_activity", model: "ach", description: "ACH return reversal fee", count: 1, amount: 251 },
      // Two ACH debits, one day: one batch.
      { kind: "ach_activity", model: "ach", description: "ACH daily batch fee", count: 1, amount: 10 },
      { kind: "monthly", model: "ach", description: "ACH monthly fee", count: 1, amount: 1_000 },
      // $25.00 minimum less the month's 505 of processing fees.
      {
        kind: "monthly",
        model: "flat_rate",
        description: "Minimum processing fee top-up",
        count: 1,
        amount: 2_500 - processing,
      },
    ]);
    const fees = processing + 500 + 251 + 10 + 1_000 + (2_500 - processing);
    expect(figures.fees).toBe(fees);
    expect(figures.net).toBe(19_000 - 1_700 - 2_000 + 2_500 - fees);
    expect(figures.cardBrands).toEqual([
      { brand: "visa", count: 1, volume: 10_000 },
      { brand: "ach", count: 2, volume: 7_000 },
      { brand: "amex", count: 1, volume: 2_000 },
    ]);
    expect(figures.dailyTotals).toEqual([
      // Refunds and the banks' returns apart: the reversal of 3 Feb gives a return back.
      { date: "2026-02-01", charges: 0, volume: 0, refunds: 700, returns: 0, fees: 0 },
      { date: "2026-02-03", charges: 0, volume: 0, refunds: 0, returns: -2_500, fees: 0 },
      { date: "2026-02-27", charges: 3, volume: 17_000, refunds: 1_000, returns: 0, fees: 405 },
      { date: "2026-02-28", charges: 1, volume: 2_000, refunds: 0, returns: 2_000, fees: 100 },
    ]);
    expect(figures.items.map((i) => [i.kind, i.id, i.amount, i.fee])).toEqual([
      ["refund", "re_2", 700, 0],
      ["return_reversal", old.id, 2_500, 0],
      ["charge", card1.id, 10_000, 320],
      ["charge", a1.id, 4_000, 45],
      ["charge", a2.id, 3_000, 40],
      ["refund", "re_1", 1_000, 0],
      ["return", a2.id, 2_000, 0],
      ["charge", amex.id, 2_000, 100],
    ]);
    expect(figures.items.find((i) => i.kind === "charge" && i.id === a1.id)).toMatchObject({
      card_brand: "ach",
      card_last_4: "6789",
      charge_id: a1.id,
      created_at: "2026-02-27T10:05:00.000Z",
    });
  });

  test("processing above the minimum: no top-up; a card-only merchant: no ACH lines", () => {
    const figures = statementFigures(
      {
        application: { capabilities: { types: ["flat_rate"] }, fees: { monthly: { minimum_processing_fee: 0.5 } } },
        defaultCapabilities: { types: ["flat_rate"] },
      } as never,
      { charges: [charge({ amountCaptured: 10_000 })], refunds: [], returns: [], reversals: [] },
    );
    expect(figures.feeLines.map((l) => l.description)).toEqual(["Card"]);
    expect(figures).toMatchObject({ fees: 59, net: 10_000 - 59 });
  });

  const only = (types: string[], over: Record<string, unknown> = {}, options: Record<string, unknown> = {}) =>
    ({
      application: { capabilities: { types }, ...over },
      defaultCapabilities: { types, options },
    }) as never;
  const empty = { charges: [], refunds: [], returns: [], reversals: [] };

  test("every item's fields, exactly: a keyed card, an unknown brand, a bank debit's return and reversal, a refund", () => {
    const card = charge({ id: "ch_card", capturedAt: new Date("2026-02-02T08:00:00Z") });
    const unknown = charge({
      id: "ch_unknown",
      cardBrand: null,
      cardLast4: "0000",
      cardEntryMethod: "CHIP",
      capturedAt: new Date("2026-02-02T09:00:00Z"),
    });
    const bank = charge({
      id: "ch_bank",
      paymentMethod: "ach",
      cardBrand: null,
      cardLast4: null,
      cardEntryMethod: null as never,
      ach: { last4: "6789" } as never,
      amountCaptured: 2_000,
      amountRefunded: 500,
      capturedAt: new Date("2026-02-02T10:00:00Z"),
      returnedAt: new Date("2026-02-03T10:00:00Z"),
      returnReversedAt: new Date("2026-02-04T10:00:00Z"),
    });
    const figures = statementFigures(only(["flat_rate"]), {
      charges: [card, unknown],
      refunds: [refund("re_x", "ch_card", 300, "2026-02-05T00:00:00Z")],
      returns: [bank],
      reversals: [bank],
    });
    expect(figures.items).toEqual([
      {
        kind: "charge",
        id: "ch_card",
        charge_id: "ch_card",
        created_at: "2026-02-02T08:00:00.000Z",
        amount: 1_000,
        fee: 59,
        card_brand: "visa",
        card_last_4: "4242",
        card_entry_method: "MANUAL",
      },
      {
        kind: "charge",
        id: "ch_unknown",
        charge_id: "ch_unknown",
        created_at: "2026-02-02T09:00:00.000Z",
        amount: 1_000,
        fee: 59,
        card_brand: null,
        card_last_4: "0000",
        card_entry_method: "CHIP",
      },
      {
        kind: "return",
        id: "ch_bank",
        charge_id: "ch_bank",
        created_at: "2026-02-03T10:00:00.000Z",
        amount: 1_500,
        fee: 0,
        card_brand: "ach",
        card_last_4: "6789",
        card_entry_method: null,
      },
      {
        kind: "return_reversal",
        id: "ch_bank",
        charge_id: "ch_bank",
        created_at: "2026-02-04T10:00:00.000Z",
        amount: 1_500,
        fee: 0,
        card_brand: "ach",
        card_last_4: "6789",
        card_entry_method: null,
      },
      {
        kind: "refund",
        id: "re_x",
        charge_id: "ch_card",
        created_at: "2026-02-05T00:00:00.000Z",
        amount: 300,
        fee: 0,
        card_brand: null,
        card_last_4: null,
        card_entry_method: null,
      },
    ]);
    expect(figures.cardBrands).toEqual(
      [
        // Equal volumes: by name.
        { brand: "unknown", count: 1, volume: 1_000 },
        { brand: "visa", count: 1, volume: 1_000 },
      ].sort((a, b) => a.brand.localeCompare(b.brand)),
    );
    // A charge without a fee counts 0.
    expect(
      statementFigures(only(["flat_rate"]), { ...empty, charges: [charge({ fee: null, feeDetails: null })] }),
    ).toMatchObject({ fees: 0, feeLines: [] });
  });

  test("an ACH line appears only when both its count and its fee are above zero", () => {
    const debit = charge({
      paymentMethod: "ach",
      capturedAt: new Date("2026-02-02T10:00:00Z"),
      returnedAt: new Date("2026-02-03T10:00:00Z"),
      returnReversedAt: new Date("2026-02-04T10:00:00Z"),
      feeDetails: [] as never,
    });
    const ach = (options: Record<string, unknown>, month = {}) =>
      statementFigures(only(["ach"], {}, { ach: options }), { ...empty, ...month }).feeLines.map((l) => [
        l.description,
        l.count,
        l.amount,
      ]);
    const free = { return_fee_fixed: "0.00", return_reversal_fee: "0", daily_batch_fee: "0.00", monthly_fee: "0.00" };
    expect(ach(free, { charges: [debit], returns: [debit], reversals: [debit] })).toEqual([]);
    const priced = {
      return_fee_fixed: "5.00",
      return_reversal_fee: "5.00",
      daily_batch_fee: "0.10",
      monthly_fee: "10.00",
    };
    expect(ach(priced)).toEqual([["ACH monthly fee", 1, 1_000]]);
    const nextDay = { ...debit, id: "ch_next", capturedAt: new Date("2026-02-03T10:00:00Z") } as typeof debit;
    // Two debits on two days: two batches.
    expect(ach(priced, { charges: [debit, nextDay, { ...debit, id: "ch_same" }] })[0]).toEqual([
      "ACH daily batch fee",
      2,
      20,
    ]);
    expect(ach(priced, { charges: [debit] })).toEqual([
      ["ACH daily batch fee", 1, 10],
      ["ACH monthly fee", 1, 1_000],
    ]);
    // No ACH in the merchant's types: none of its lines, whatever the options.
    expect(statementFigures(only(["flat_rate"], {}, { ach: priced }), { ...empty, returns: [debit] }).feeLines).toEqual(
      [],
    );
  });

  test("monthly card fees: the flat rate's minimum only for flat rate, the advance service charge only for cash discount", () => {
    const month = { ...empty, charges: [charge({})] }; // 59 of processing
    const lines = (types: string[], monthly: Record<string, number> | undefined) =>
      statementFigures(only(types, monthly ? { fees: { monthly } } : {}), month).feeLines.filter(
        (l) => l.kind === "monthly",
      );
    expect(lines(["flat_rate"], { minimum_processing_fee: 1 })).toEqual([
      { kind: "monthly", model: "flat_rate", description: "Minimum processing fee top-up", count: 1, amount: 41 },
    ]);
    expect(lines(["flat_rate"], { minimum_processing_fee: 0.59 })).toEqual([]);
    expect(lines(["flat_rate"], undefined)).toEqual([]);
    expect(lines(["tiered"], { minimum_processing_fee: 100 })).toEqual([]);
    expect(lines(["cash_discount"], { merchant_advance_service_charge: 12.5 })).toEqual([
      {
        kind: "monthly",
        model: "cash_discount",
        description: "Merchant advance service charge",
        count: 1,
        amount: 1_250,
      },
    ]);
    expect(lines(["cash_discount"], { merchant_advance_service_charge: 0 })).toEqual([]);
    expect(lines(["flat_rate"], { merchant_advance_service_charge: 12.5 })).toEqual([]);
    expect(lines(["cash_discount"], { minimum_processing_fee: 100 })).toEqual([]);
  });
});
