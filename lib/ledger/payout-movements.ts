import { and, eq, inArray, isNull, ne, notInArray, or, sql } from "drizzle-orm";

import { type AccountPayoutRow, ledgerPostings, type MerchantPayoutRow, type ResidualRow } from "../db/schema";
import { type DbOrTx } from "../db/types";
import { isvRevenue, platform } from "./entry-helpers";
import { post } from "./post";

// A payout's movements, the merchant's and the ISV's (see ./payment-movements.ts).

/** The posting types a payout never takes as a line (the platform's own moves, and payouts' own postings). */
export const notPayoutLineTypes = ["payout_failure", "payout", "settlement", "funding", "payout_paid"] as const;
/**
 * The postings an automatic payout takes with no settlement: the `payout` postings of manual payouts,
 * a reserve's holds and releases, and instant payouts' fees (they move `available` itself,
 * docs/reference.md section 20).
 */
export const unsettledPayoutLineTypes = ["payout", "reserve_hold", "reserve_release", "instant_payout_fee"] as const;

/**
 * A payout's lines, when it is made: the postings it pays out. An automatic payout (a schedule's,
 * docs/reference.md section 20) takes every settled posting not paid out yet (the negative nets
 * carried in included), the `payout` postings of manual payouts sent since the last one (their
 * money left already: the lines add up to what is left) and the reserves' holds and releases since; a replacement of a failed payout takes
 * the failure's posting that gave the money back; a manual payout takes none. Nothing moves yet:
 * the money stays in `available` while the payout waits (pending or held), and leaves it only when
 * it is sent.
 */
export async function takePayoutLines(tx: DbOrTx, payout: MerchantPayoutRow) {
  if (!payout.automatic && !payout.replaces) return;
  const lines = payout.replaces
    ? and(eq(ledgerPostings.type, "payout_failure"), eq(ledgerPostings.sourceId, payout.replaces))
    : or(
        and(sql`${ledgerPostings.settlementId} is not null`, notInArray(ledgerPostings.type, [...notPayoutLineTypes])),
        and(eq(ledgerPostings.type, "payout"), ne(ledgerPostings.sourceId, payout.id)),
        inArray(ledgerPostings.type, ["reserve_hold", "reserve_release", "instant_payout_fee"]),
      );
  await tx
    .update(ledgerPostings)
    .set({ payoutId: payout.id })
    .where(and(eq(ledgerPostings.merchantId, payout.merchantId), isNull(ledgerPostings.payoutId), lines));
}

/** Whether the payout's `payout` posting is there (an older release posted a payout when it was made). */
async function sentAlready(tx: DbOrTx, payoutId: string) {
  const [posted] = await tx
    .select({ id: ledgerPostings.id })
    .from(ledgerPostings)
    .where(and(eq(ledgerPostings.sourceId, payoutId), eq(ledgerPostings.type, "payout")));
  return Boolean(posted);
}

/**
 * A payout sent to the bank: `available` to `payout_clearing`, at `sentAt`, once. A payout made
 * before payouts were posted when sent (an older release posted it when it was made, held or not)
 * has its posting already: nothing is posted again.
 */
export async function postPayoutSent(tx: DbOrTx, payout: MerchantPayoutRow, sentAt: Date) {
  // Its lines' funds are paid out on the payout's arrival date, whatever day was foreseen when they
  // were written (a settlement run early in the sandbox, a payout held for days): `available_on` says so.
  if (payout.arrivalDate)
    await tx
      .update(ledgerPostings)
      .set({ availableOn: payout.arrivalDate })
      .where(and(eq(ledgerPostings.payoutId, payout.id), ne(ledgerPostings.availableOn, payout.arrivalDate)));
  if (await sentAlready(tx, payout.id)) return;
  await post(tx, {
    isvAccountId: payout.isvAccountId,
    merchantId: payout.merchantId,
    type: "payout",
    sourceId: payout.id,
    amount: -payout.amount,
    description: `Payout to bank account •••• ${payout.bankLast4 ?? ""}`.trim(),
    createdAt: sentAt,
    ...(payout.arrivalDate ? { availableOn: payout.arrivalDate } : {}),
    settlementId: payout.settlementId,
    // A manual payout's posting is a line of the next automatic payout (./takePayoutLines), which names it then.
    payoutId: payout.automatic || payout.replaces ? payout.id : null,
    entries: [
      { account: "available", owner: payout.merchantId, amount: -payout.amount },
      platform("payout_clearing", payout.amount),
    ],
  });
}

/**
 * An instant payout's fee, when the payout is made (docs/reference.md section 20): `fee` cents out of
 * the merchant's `available`, its cost part (the cost profile's `instant_payout_bps`) the platform's
 * processing revenue, its markup the ISV's revenue (the residual counts it with the platform fees).
 * `back`: the rail refused the payout, and the fee is given back the same way.
 */
export function postInstantPayoutFee(tx: DbOrTx, payout: MerchantPayoutRow, back = false) {
  const fee = payout.fee ?? 0;
  const markup = payout.feeMarkup ?? 0;
  const sign = back ? -1 : 1;
  return post(tx, {
    isvAccountId: payout.isvAccountId,
    merchantId: payout.merchantId,
    type: "instant_payout_fee",
    sourceId: payout.id,
    amount: -sign * fee,
    description: back ? `Instant payout ${payout.id} refused: fee given back` : `Instant payout fee (${payout.id})`,
    entries: [
      { account: "available", owner: payout.merchantId, amount: -sign * fee },
      platform("processing_revenue", sign * (fee - markup)),
      isvRevenue(payout.isvAccountId, sign * markup),
    ],
  });
}

/** The bank's answer to a payout: paid (the money left the platform), or failed (back to `available`). */
export function postPayoutOutcome(tx: DbOrTx, payout: MerchantPayoutRow, outcome: "paid" | "failed") {
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

/**
 * A payout of a residual sent to the ISV's bank account: from the ISV's `revenue` to the platform's
 * payout clearing, at `sentAt`, once (as a merchant's: an older release posted it when made).
 */
export async function postAccountPayoutSent(tx: DbOrTx, payout: AccountPayoutRow, sentAt: Date) {
  if (await sentAlready(tx, payout.id)) return;
  await post(tx, {
    isvAccountId: payout.isvAccountId,
    merchantId: null,
    type: "payout",
    sourceId: payout.id,
    amount: -payout.amount,
    description: `Residual paid to bank account •••• ${payout.bankLast4 ?? ""}`.trim(),
    createdAt: sentAt,
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
