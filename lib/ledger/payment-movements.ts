import { type ChargeRow, type DisputeRow, type RefundRow } from "../db/schema";
import { type DbOrTx } from "../db/types";
import { clearingOf, isvRevenue, methodWords, pending, platform } from "./entry-helpers";
import { post, postAll, type Posting } from "./post";
import { newChargeFacts } from "./reads";

// Every movement of money, as postings (docs/reference.md section 18), in three files: payments
// (./payment-movements.ts), settlements (./settlement-movements.ts) and payouts (./payout-movements.ts).
// Each is called in the transaction of the change that moved the money. A merchant's money waits in
// `pending` until a settlement takes it (→ `available`); a payout moves `available` to
// `payout_clearing`, and the bank's answer moves it on (paid: to `platform_cash`; failed: back to
// `available`). The platform's side of a payment is a clearing account (the card network or the ACH
// bank owes it), drained when the settlement is funded.

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
  return {
    /** Its platform fee's posting (null when none). */
    platformFee: fee ? (rows.find((r) => r.type === "platform_fee") ?? null) : null,
    /** The charge with the ledger's facts as these postings made them (not read back). */
    charge: { ...charge, net: null, settlementId: null, ...newChargeFacts(charge.id, rows) },
  };
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
