import { and, desc, eq, isNull, lt, type SQL, sql } from "drizzle-orm";

import { clock } from "../../clock";
import { rowsOf } from "../../db/client";
import { retryOnConflict } from "../../db/errors";
import { one } from "../../db/one";
import { charges, disputes, merchants, refunds, settlements } from "../../db/schema";
import { type Db } from "../../db/types";
import { createId } from "../../ids";
import { enqueueJob } from "../../jobs/job-types";
import { countedPostings, settlementFigures } from "../../ledger/settlement-figures";
import {
  merchantsWithMonthEndFeesDue,
  monthEndFeesToTake,
  postSettlement,
  takeForSettlement,
} from "../../ledger/settlement-movements";
import { log } from "../../log";
import { serializeChargeForIsv } from "../../serializers/charge";
import { serializeSettlement } from "../../serializers/settlement";
import { refundsOfCharges } from "../charges/refunds-of-charges";
import { moveCharges, settleablePredicates } from "../charges/status";
import { disputeSettlementPredicates } from "../disputes/settlement-predicates";
import { recordEvent, recordEvents } from "../events/record-event";
import { payoutForSettlement } from "../payouts/payout-for-settlement";
import { heldReasonOf } from "../payouts/rules";
import { ACH_RETURN_DELAY_MS } from "./ach-returns";

/** How long after a settlement the card processor is asked which of its charges were disputed (sandbox: at once). */
export const CARD_DISPUTE_DELAY_MS = 2_000;

/**
 * One merchant's settlement (docs/reference.md section 13), in one transaction: its AUTHORIZED charges
 * made before `cutoff` become SETTLED with this settlement's id (a conditional update, so two runs
 * at once settle each charge once: the second finds them settled), its refunds since the last
 * settlement are attached, and the totals are their sums. `charge.settled` for each charge, then
 * `settlement.created`. Nothing to settle: no settlement.
 */
export async function settleMerchant(db: Db, merchantId: string, cutoff: Date) {
  // A settlement that loses a race (a deadlock) runs again: it did nothing outside the database.
  return retryOnConflict(() => settleOnce(db, merchantId, cutoff));
}

async function settleOnce(db: Db, merchantId: string, cutoff: Date) {
  return db.transaction(async (tx) => {
    // The merchant's row locked first: one settlement of a merchant at a time, so the negative net
    // carried from the last one is carried once.
    const [merchant] = await tx.select().from(merchants).where(eq(merchants.id, merchantId)).for("update");
    if (!merchant) return null;
    const id = createId("stl");
    const now = clock.now();
    const take = settleablePredicates(cutoff);
    const ofMerchant = eq(charges.merchantId, merchantId);
    const settled = await moveCharges(tx, "settle", and(ofMerchant, take.charges), {
      settledAt: now,
      settlementId: id,
    });
    const carried = await tx
      .update(refunds)
      .set({ settlementId: id })
      .where(and(eq(refunds.merchantId, merchantId), take.refunds))
      .returning();
    // ACH charges returned since the last settlement: what the merchant still held of them comes back.
    const returned = await tx
      .update(charges)
      .set({ returnSettlementId: id })
      .where(and(ofMerchant, take.returns))
      .returning();
    // Returns taken back earlier that the banks then reversed: paid back.
    const reversed = await tx
      .update(charges)
      .set({ reversalSettlementId: id })
      .where(and(ofMerchant, take.reversals))
      .returning();
    // Disputes opened since the last settlement: their amounts and fees leave this one; then the won
    // disputes already taken (this settlement's own included) have their amounts returned.
    const takeDisputes = disputeSettlementPredicates(cutoff);
    const ofMerchantDisputes = eq(disputes.merchantId, merchantId);
    const disputed = await tx
      .update(disputes)
      .set({ settlementId: id })
      .where(and(ofMerchantDisputes, takeDisputes.opened))
      .returning();
    const won = await tx
      .update(disputes)
      .set({ wonSettlementId: id })
      .where(and(ofMerchantDisputes, takeDisputes.won))
      .returning();
    // The month-end fees of the statements made before the cutoff (docs/reference.md section 13).
    const monthEnd = await monthEndFeesToTake(tx, merchantId, cutoff);
    if (
      monthEnd.length === 0 &&
      settled.length === 0 &&
      carried.length === 0 &&
      returned.length === 0 &&
      reversed.length === 0 &&
      disputed.length === 0 &&
      won.length === 0
    )
      return null;
    const [last] = await tx
      .select({ net: settlements.net })
      .from(settlements)
      .where(eq(settlements.merchantId, merchantId))
      .orderBy(desc(settlements.seq))
      .limit(1);
    const carriedIn = Math.min(0, last?.net ?? 0);
    // Its figures are read from the ledger: the postings of what it took (a return and its reversal
    // that no settlement took back go with it, and cancel out).
    const returnedAndReversed = await tx
      .select({ id: charges.id })
      .from(charges)
      .where(and(ofMerchant, isNull(charges.returnSettlementId), lt(charges.returnReversedAt, cutoff)));
    const taken = await takeForSettlement(
      tx,
      { id, merchantId },
      {
        refunds: carried.map((r) => r.id),
        returns: returned.map((c) => c.id),
        reversals: reversed.map((c) => c.id),
        disputes: disputed.map((d) => d.id),
        disputesWon: won.map((d) => d.id),
        returnedAndReversed: returnedAndReversed.map((c) => c.id),
        monthEndFees: monthEnd.map((s) => s.statementId),
      },
    );
    const figures = settlementFigures(taken, carriedIn);
    // Every object it took has its posting (migration 0030 wrote those made before the ledger).
    const expected =
      settled.length + carried.length + returned.length + reversed.length + 2 * disputed.length + won.length;
    const found = countedPostings(taken).filter((p) => p.type !== "monthly_fee").length;
    if (found < expected - disputed.filter((d) => d.fee === 0).length)
      log.error(
        { settlement_id: id, merchant_id: merchantId, expected, found },
        "a settled object has no ledger posting",
      );
    const settlement = one(
      await tx
        .insert(settlements)
        .values({
          id,
          isvAccountId: merchant.isvAccountId,
          merchantId,
          ...figures,
          payoutStatus: heldReasonOf(merchant) ? "held" : "scheduled",
          cutoff,
          createdAt: now,
        })
        .returning(),
    );
    // The ledger: the net of what it took moves from pending to available.
    await postSettlement(tx, settlement, taken);
    const refundsBy = await refundsOfCharges(tx, { settlementId: id });
    await recordEvents(
      tx,
      settled.map((charge) => ({
        accountId: charge.isvAccountId,
        type: "charge.settled" as const,
        objectId: charge.id,
        data: serializeChargeForIsv(charge, merchant, refundsBy.get(charge.id)),
      })),
    );
    await recordEvent(tx, {
      accountId: merchant.isvAccountId,
      type: "settlement.created",
      objectId: id,
      data: serializeSettlement(settlement),
    });
    // Its positive net is paid out (a negative one is carried into the next settlement).
    await payoutForSettlement(tx, merchant, settlement);
    // The card processor reports which settled charges their customers disputed.
    if (settled.some((c) => c.paymentMethod === "card"))
      await enqueueJob(
        tx,
        "card_disputes",
        { settlement_id: id },
        { runAt: new Date(now.getTime() + CARD_DISPUTE_DELAY_MS), key: `card_disputes_${id}` },
      );
    // The banks answer after settlement: the ACH processor is asked which debits came back.
    if (settled.some((c) => c.paymentMethod === "ach"))
      await enqueueJob(
        tx,
        "ach_returns",
        { settlement_id: id },
        { runAt: new Date(now.getTime() + ACH_RETURN_DELAY_MS), key: `ach_returns_${id}` },
      );
    return settlement;
  });
}

/** The merchants with something to settle before `cutoff` (of one ISV, or of all). */
export async function merchantsToSettle(db: Db, cutoff: Date, isvAccountId?: string, merchantId?: string) {
  const scope = (table: typeof charges | typeof refunds | typeof disputes) =>
    and(
      isvAccountId ? eq(table.isvAccountId, isvAccountId) : undefined,
      merchantId ? eq(table.merchantId, merchantId) : undefined,
    );
  const take = settleablePredicates(cutoff);
  const takeDisputes = disputeSettlementPredicates(cutoff);
  const of = (table: typeof charges | typeof refunds | typeof disputes, what: SQL) =>
    sql`select ${table.merchantId} as merchant_id from ${table} where ${and(what, scope(table))}`;
  const rows = await db.execute<{ merchant_id: string }>(
    sql`select distinct merchant_id from (${of(charges, take.charges)} union ${of(refunds, take.refunds)} union ${of(charges, take.returns)} union ${of(charges, take.reversals)} union ${of(disputes, takeDisputes.opened)} union ${of(disputes, takeDisputes.won)} union ${merchantsWithMonthEndFeesDue(cutoff, { isvAccountId, merchantId })}) m order by merchant_id`,
  );
  return rowsOf<{ merchant_id: string }>(rows).map((r) => r.merchant_id);
}
