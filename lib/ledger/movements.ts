import { and, eq, inArray, isNull, notInArray, or, type SQL, sql } from "drizzle-orm";

import { rowsOf } from "../db/client";
import {
  type AccountPayoutRow,
  type ChargeRow,
  charges,
  type DisputeRow,
  ledgerPostings,
  type PayoutRow,
  type RefundRow,
  type ResidualRow,
} from "../db/schema";
import { type DbOrTx } from "../db/types";
import { type PostingType } from "../schemas/ledger-values";
import { type Entry, post, postAll, type Posting } from "./post";
import { type TakenPosting } from "./settlement-figures";

// Every movement of money today, as postings (docs/reference.md section 18). Each is called in the
// transaction of the change that moved the money. A merchant's money waits in `pending` until a
// settlement takes it (→ `available`); a payout moves `available` to `payout_clearing`, and the bank's
// answer moves it on (paid: to `platform_cash`; failed: back to `available`). The platform's side of a
// payment is a clearing account (the card network or the ACH bank owes it), drained when the
// settlement is funded.

const pending = (merchantId: string, amount: number): Entry => ({ account: "pending", owner: merchantId, amount });
const platform = (account: Entry["account"], amount: number): Entry => ({ account, owner: null, amount });
const clearingOf = (charge: Pick<ChargeRow, "paymentMethod">) =>
  charge.paymentMethod === "ach" ? ("ach_clearing" as const) : ("card_clearing" as const);
const methodWords = (charge: Pick<ChargeRow, "paymentMethod" | "cardBrand" | "cardLast4" | "ach">) =>
  charge.paymentMethod === "ach"
    ? `bank account •••• ${(charge.ach as { last4?: string } | null)?.last4 ?? ""}`.trim()
    : `${charge.cardBrand ?? "card"} •••• ${charge.cardLast4 ?? ""}`.trim();

/** An authorized charge: its capture owed by the card network (or the ACH bank), its fee to the platform, the rest pending to the merchant. */
export function chargePosting(charge: ChargeRow): Posting | null {
  if (charge.status === "FAILED" || charge.amountCaptured === 0) return null;
  const fee = charge.fee ?? 0;
  return {
    isvAccountId: charge.isvAccountId,
    merchantId: charge.merchantId,
    type: "charge",
    sourceId: charge.id,
    amount: charge.amountCaptured,
    fee,
    description: `Payment by ${methodWords(charge)}`,
    createdAt: charge.createdAt,
    entries: [
      platform(clearingOf(charge), -charge.amountCaptured),
      pending(charge.merchantId, charge.amountCaptured - fee),
      platform("processing_revenue", fee),
    ],
  };
}

/** The ISV's revenue account (section 19): its platform fees, and later its residuals. */
const isvRevenue = (isvAccountId: string, amount: number): Entry => ({
  account: "revenue",
  owner: isvAccountId,
  amount,
});

/** A charge's platform fee (docs/reference.md section 19): from the merchant's `pending` to the ISV's `revenue`. */
export function platformFeePosting(charge: ChargeRow, isvName: string): Posting | null {
  if (charge.status === "FAILED" || !charge.platformFee) return null;
  return {
    isvAccountId: charge.isvAccountId,
    merchantId: charge.merchantId,
    type: "platform_fee",
    sourceId: charge.id,
    amount: -charge.platformFee,
    description: `${isvName} fee`,
    createdAt: charge.createdAt,
    entries: [pending(charge.merchantId, -charge.platformFee), isvRevenue(charge.isvAccountId, charge.platformFee)],
  };
}

/** What a refund gives back of the charge's platform fee: from the ISV's `revenue` to the merchant's `pending`. */
export function platformFeeRefundPosting(refund: RefundRow, isvName: string): Posting | null {
  if (!refund.platformFeeRefund) return null;
  return {
    isvAccountId: refund.isvAccountId,
    merchantId: refund.merchantId,
    type: "platform_fee_refund",
    sourceId: refund.id,
    amount: refund.platformFeeRefund,
    description: `${isvName} fee refunded`,
    createdAt: refund.createdAt,
    entries: [
      pending(refund.merchantId, refund.platformFeeRefund),
      isvRevenue(refund.isvAccountId, -refund.platformFeeRefund),
    ],
  };
}

/** A refund: the merchant gives the amount back; it leaves through the network that brought it. */
export function refundPosting(refund: RefundRow, charge: Pick<ChargeRow, "paymentMethod">): Posting {
  return {
    isvAccountId: refund.isvAccountId,
    merchantId: refund.merchantId,
    type: "refund",
    sourceId: refund.id,
    amount: -refund.amount,
    description: `Refund of ${refund.chargeId}`,
    createdAt: refund.createdAt,
    entries: [pending(refund.merchantId, -refund.amount), platform(clearingOf(charge), refund.amount)],
  };
}

/**
 * An ACH debit the bank returned (at its `returned_at`): what the merchant still held of it (`held`:
 * captured less refunds) is taken back; or that return reversed by the bank (at its `return_reversed_at`).
 */
export function achReturnPosting(charge: ChargeRow, held: number, reversal = false): Posting {
  const sign = reversal ? 1 : -1;
  return {
    isvAccountId: charge.isvAccountId,
    merchantId: charge.merchantId,
    type: reversal ? "ach_return_reversal" : "ach_return",
    sourceId: charge.id,
    amount: sign * held,
    description: reversal ? `Return of ${charge.id} reversed by the bank` : `${charge.id} returned by the bank`,
    createdAt: (reversal ? charge.returnReversedAt : charge.returnedAt) ?? undefined,
    entries: [pending(charge.merchantId, sign * held), platform("ach_clearing", -sign * held)],
  };
}

/** A dispute opened: the disputed amount goes back to the card network, and the dispute fee to the platform. */
export function disputePostings(dispute: DisputeRow): Posting[] {
  const base = { isvAccountId: dispute.isvAccountId, merchantId: dispute.merchantId, sourceId: dispute.id };
  return [
    {
      ...base,
      type: "dispute",
      amount: -dispute.amount,
      description: `Dispute of ${dispute.chargeId}`,
      createdAt: dispute.createdAt,
      entries: [pending(dispute.merchantId, -dispute.amount), platform("dispute_clearing", dispute.amount)],
    },
    {
      ...base,
      type: "dispute_fee",
      amount: -dispute.fee,
      description: `Dispute fee for ${dispute.chargeId}`,
      createdAt: dispute.createdAt,
      entries: [pending(dispute.merchantId, -dispute.fee), platform("processing_revenue", dispute.fee)],
    },
  ];
}

/** A dispute won (at its `closed_at`): the card network gives the amount back (the fee stays taken). */
export function disputeWonPosting(dispute: DisputeRow): Posting {
  return {
    isvAccountId: dispute.isvAccountId,
    merchantId: dispute.merchantId,
    type: "dispute_won",
    sourceId: dispute.id,
    amount: dispute.amount,
    description: `Dispute of ${dispute.chargeId} won`,
    createdAt: dispute.closedAt ?? undefined,
    entries: [pending(dispute.merchantId, dispute.amount), platform("dispute_clearing", -dispute.amount)],
  };
}

/**
 * What something cost the platform (docs/reference.md section 19): from its `processing_revenue` to
 * `processing_costs` (what it owes the networks and the processor). Internal: never a merchant's
 * balance transaction; it moves none of the merchant's money.
 */
export function costPosting(
  of: { isvAccountId: string; merchantId: string; id: string },
  costs: number | null,
  description: string,
  createdAt: Date | undefined,
): Posting | null {
  if (!costs) return null;
  return {
    isvAccountId: of.isvAccountId,
    merchantId: of.merchantId,
    type: "cost",
    sourceId: of.id,
    amount: 0,
    description,
    createdAt,
    entries: [platform("processing_revenue", -costs), platform("processing_costs", costs)],
  };
}

/** A charge's postings, in one go: the charge, its platform fee and its costs (answered: the fee's, or null). */
export async function postCharge(tx: DbOrTx, charge: ChargeRow, isvName: string) {
  const fee = platformFeePosting(charge, isvName);
  const cost =
    charge.status === "FAILED" ? null : costPosting(charge, charge.costs, `Costs of ${charge.id}`, charge.createdAt);
  const rows = await postAll(
    tx,
    [chargePosting(charge), fee, cost].filter((p): p is Posting => p !== null),
  );
  return fee ? (rows.find((r) => r.type === "platform_fee") ?? null) : null;
}
/** A refund's postings: the refund, and what it gave back of the platform fee (answered: null when nothing). */
export async function postRefund(
  tx: DbOrTx,
  refund: RefundRow,
  charge: Pick<ChargeRow, "paymentMethod">,
  isvName: string,
) {
  await post(tx, refundPosting(refund, charge));
  const fee = platformFeeRefundPosting(refund, isvName);
  return fee ? post(tx, fee) : null;
}
/** A bank's return (with what it cost the platform), or its reversal (which costs nothing more). */
export const postAchReturn = (tx: DbOrTx, charge: ChargeRow, held: number, reversal = false) =>
  postAll(
    tx,
    [
      achReturnPosting(charge, held, reversal),
      reversal
        ? null
        : costPosting(charge, charge.returnCosts, `Return costs of ${charge.id}`, charge.returnedAt ?? undefined),
    ].filter((p): p is Posting => p !== null),
  );
/** A dispute opened: its amount, its fee, and what it cost the platform. */
export async function postDispute(tx: DbOrTx, dispute: DisputeRow) {
  const cost = costPosting(dispute, dispute.costs, `Costs of dispute ${dispute.id}`, dispute.createdAt);
  await postAll(tx, cost ? [...disputePostings(dispute), cost] : disputePostings(dispute));
}
export const postDisputeWon = (tx: DbOrTx, dispute: DisputeRow) => post(tx, disputeWonPosting(dispute));

/**
 * A final statement's month-end fees (ACH activity and monthly fees, docs/reference.md section 13):
 * each line taken from the merchant's `pending` to the platform's revenue, in the statement's
 * transaction; the next settlement takes them.
 */
export async function postMonthEndFees(
  tx: DbOrTx,
  statement: { id: string; isvAccountId: string; merchantId: string; period: string },
  lines: readonly { description: string; amount: number }[],
) {
  for (const line of lines)
    await post(tx, {
      isvAccountId: statement.isvAccountId,
      merchantId: statement.merchantId,
      type: "monthly_fee",
      sourceId: statement.id,
      amount: -line.amount,
      description: `${line.description}, ${statement.period}`,
      entries: [pending(statement.merchantId, -line.amount), platform("processing_revenue", line.amount)],
    });
}

/** What a settlement took besides its charges, by kind: the ids of the objects whose postings it takes. */
export type SettlementTook = {
  refunds: string[];
  returns: string[];
  reversals: string[];
  disputes: string[];
  disputesWon: string[];
  /** Charges whose return the bank reversed before any settlement took it: both postings go together (net 0). */
  returnedAndReversed: string[];
  /** Final statements whose month-end fees no settlement has taken yet. */
  monthEndFees: string[];
};

/**
 * A settlement's first step (in its transaction, once its charges carry its id): the postings of
 * what it took are marked as its own: its charges (read by the settlement's id on their rows, an
 * index range: a day's thousands of ids are not sent) and `took`. Each once: a posting another
 * settlement took is not taken again. Answers them: the settlement's figures are read from them
 * (./settlement-figures.ts).
 */
export async function takeForSettlement(
  tx: DbOrTx,
  settlement: { id: string; merchantId: string },
  took: SettlementTook,
): Promise<(TakenPosting & { id: string })[]> {
  const of = (types: PostingType[], ids: string[]): SQL | undefined =>
    ids.length ? and(inArray(ledgerPostings.type, types), inArray(ledgerPostings.sourceId, ids)) : undefined;
  const which = or(
    and(
      inArray(ledgerPostings.type, ["charge", "platform_fee"]),
      sql`${ledgerPostings.sourceId} in (select ${charges.id} from ${charges} where ${charges.settlementId} = ${settlement.id})`,
    ),
    of(["refund", "platform_fee_refund"], took.refunds),
    of(["ach_return"], took.returns),
    of(["ach_return_reversal"], took.reversals),
    of(["dispute", "dispute_fee"], took.disputes),
    of(["dispute_won"], took.disputesWon),
    of(["ach_return", "ach_return_reversal"], took.returnedAndReversed),
    of(["monthly_fee"], took.monthEndFees),
  );
  return tx
    .update(ledgerPostings)
    .set({ settlementId: settlement.id })
    .where(and(eq(ledgerPostings.merchantId, settlement.merchantId), isNull(ledgerPostings.settlementId), which))
    .returning({
      id: ledgerPostings.id,
      type: ledgerPostings.type,
      sourceId: ledgerPostings.sourceId,
      amount: ledgerPostings.amount,
      fee: ledgerPostings.fee,
      net: ledgerPostings.net,
    });
}

/**
 * A settlement's money moves (in its transaction, once it is written): the net of what it took
 * moves from the merchant's `pending` to `available`, and the processor's funding drains the
 * clearing entries they made (its postings, read by its id). Answers the net moved.
 */
export async function postSettlement(
  tx: DbOrTx,
  settlement: { id: string; isvAccountId: string; merchantId: string; createdAt: Date },
  taken: readonly { id: string; net: number }[],
) {
  if (taken.length === 0) return 0;
  const net = taken.reduce((sum, p) => sum + p.net, 0);
  const base = {
    isvAccountId: settlement.isvAccountId,
    merchantId: settlement.merchantId,
    sourceId: settlement.id,
    settlementId: settlement.id,
    createdAt: settlement.createdAt,
  };
  await post(tx, {
    ...base,
    type: "settlement",
    amount: net,
    description: `Settlement ${settlement.id}`,
    entries: [
      pending(settlement.merchantId, -net),
      { account: "available", owner: settlement.merchantId, amount: net },
    ],
  });
  // The processor funds what the settlement took: each clearing account's entries in it, drained.
  const clearing = rowsOf<{ account: Entry["account"]; total: string | number }>(
    await tx.execute(sql`
      select e.account, sum(e.amount) as total from ledger_entries e
      where e.posting_id in (select p.id from ledger_postings p where p.settlement_id = ${settlement.id})
        and e.owner_id is null and e.account in ('card_clearing', 'ach_clearing', 'dispute_clearing')
      group by e.account`),
  ).map((r) => ({ account: r.account, total: Number(r.total) }));
  const funded = clearing.reduce((sum, c) => sum + c.total, 0);
  await post(tx, {
    ...base,
    type: "funding",
    amount: 0,
    description: `Funding of settlement ${settlement.id}`,
    entries: [...clearing.map((c) => platform(c.account, -c.total)), platform("platform_cash", funded)],
  });
  return net;
}

/**
 * A payout: `available` to `payout_clearing`. Its lines are the postings it pays out: a settlement's
 * payout takes every settled posting not paid out yet (the negative nets carried in included); a
 * replacement of a failed payout takes the failure's posting that gave the money back.
 */
export async function postPayout(tx: DbOrTx, payout: PayoutRow) {
  const lines = payout.replaces
    ? and(eq(ledgerPostings.type, "payout_failure"), eq(ledgerPostings.sourceId, payout.replaces))
    : notInArray(ledgerPostings.type, ["payout_failure", "payout", "settlement", "funding", "payout_paid"]);
  await tx
    .update(ledgerPostings)
    .set({ payoutId: payout.id })
    .where(
      and(
        eq(ledgerPostings.merchantId, payout.merchantId),
        isNull(ledgerPostings.payoutId),
        sql`${ledgerPostings.settlementId} is not null`,
        lines,
      ),
    );
  return post(tx, {
    isvAccountId: payout.isvAccountId,
    merchantId: payout.merchantId,
    type: "payout",
    sourceId: payout.id,
    amount: -payout.amount,
    description: `Payout to bank account •••• ${payout.bankLast4 ?? ""}`.trim(),
    createdAt: payout.createdAt,
    settlementId: payout.settlementId,
    payoutId: payout.id,
    entries: [
      { account: "available", owner: payout.merchantId, amount: -payout.amount },
      platform("payout_clearing", payout.amount),
    ],
  });
}

/** The bank's answer to a payout: paid (the money left the platform), or failed (back to `available`). */
export function postPayoutOutcome(tx: DbOrTx, payout: PayoutRow, outcome: "paid" | "failed") {
  const base = { isvAccountId: payout.isvAccountId, merchantId: payout.merchantId, sourceId: payout.id };
  if (outcome === "paid")
    return post(tx, {
      ...base,
      type: "payout_paid",
      amount: 0,
      description: `Payout ${payout.id} paid`,
      settlementId: payout.settlementId,
      payoutId: payout.id,
      entries: [platform("payout_clearing", -payout.amount), platform("platform_cash", payout.amount)],
    });
  return post(tx, {
    ...base,
    type: "payout_failure",
    amount: payout.amount,
    description: `Payout ${payout.id} failed: returned to the balance`,
    settlementId: payout.settlementId,
    entries: [
      platform("payout_clearing", -payout.amount),
      { account: "available", owner: payout.merchantId, amount: payout.amount },
    ],
  });
}

/**
 * A residual (docs/reference.md section 19): the ISV's share of the month's margin, from the
 * platform's processing revenue to the ISV's `revenue` (a negative share the other way). Its platform
 * fees are there already (each moved when it was taken).
 */
export function postResidual(tx: DbOrTx, residual: ResidualRow) {
  return post(tx, {
    isvAccountId: residual.isvAccountId,
    merchantId: null,
    type: "residual",
    sourceId: residual.id,
    amount: residual.share,
    description: `Residual ${residual.period}: ${residual.revenueSharePercent} % of the margin`,
    createdAt: residual.createdAt,
    entries: [platform("processing_revenue", -residual.share), isvRevenue(residual.isvAccountId, residual.share)],
  });
}

/** A payout of a residual to the ISV's bank account: from the ISV's `revenue` to the platform's payout clearing. */
export function postAccountPayout(tx: DbOrTx, payout: AccountPayoutRow) {
  return post(tx, {
    isvAccountId: payout.isvAccountId,
    merchantId: null,
    type: "payout",
    sourceId: payout.id,
    amount: -payout.amount,
    description: `Residual paid to bank account •••• ${payout.bankLast4 ?? ""}`.trim(),
    createdAt: payout.createdAt,
    payoutId: payout.id,
    entries: [isvRevenue(payout.isvAccountId, -payout.amount), platform("payout_clearing", payout.amount)],
  });
}

/** The bank's answer to an ISV's payout: paid (the money left the platform), or refused (back to the ISV's revenue). */
export function postAccountPayoutOutcome(tx: DbOrTx, payout: AccountPayoutRow, outcome: "paid" | "failed") {
  const base = { isvAccountId: payout.isvAccountId, merchantId: null, sourceId: payout.id, payoutId: payout.id };
  if (outcome === "paid")
    return post(tx, {
      ...base,
      type: "payout_paid",
      amount: 0,
      description: `Payout ${payout.id} paid`,
      entries: [platform("payout_clearing", -payout.amount), platform("platform_cash", payout.amount)],
    });
  return post(tx, {
    ...base,
    type: "payout_failure",
    amount: payout.amount,
    description: `Payout ${payout.id} refused by the bank: back in the ISV's revenue`,
    entries: [platform("payout_clearing", -payout.amount), isvRevenue(payout.isvAccountId, payout.amount)],
  });
}
