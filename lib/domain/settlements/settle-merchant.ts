import { and, eq, sql } from "drizzle-orm";

import { clock } from "../../clock";
import { rowsOf } from "../../db/client";
import { retryOnConflict } from "../../db/errors";
import { one } from "../../db/one";
import { charges, merchants, settlements } from "../../db/schema";
import { type Db } from "../../db/types";
import { createId } from "../../ids";
import { enqueueJob } from "../../jobs/job-types";
import { drawableOf } from "../../ledger/payout-draws";
import { sourcesTakenBy } from "../../ledger/reads";
import { settlementFigures } from "../../ledger/settlement-figures";
import { merchantsWithPostingsToSettle, postSettlement, takeForSettlement } from "../../ledger/settlement-movements";
import { log } from "../../log";
import { serializeChargeForIsv } from "../../serializers/charge";
import { serializeSettlement } from "../../serializers/settlement";
import { withLedgerFacts } from "../charges/ledger-charge";
import { refundsOfCharges } from "../charges/refunds-of-charges";
import { moveCharges } from "../charges/status";
import { recordEvent, recordEvents } from "../events/record-event";
import { scheduledPayout } from "../payouts/payout-for-settlement";
import { heldReasonOf } from "../payouts/rules";
import { payoutSettingsOf } from "../payouts/settings";
import { holdForSettlement } from "../reserves/reserves";
import { ACH_RETURN_DELAY_MS } from "./ach-returns";

/** How long after a settlement the card processor is asked which of its charges were disputed (sandbox: at once). */
export const CARD_DISPUTE_DELAY_MS = 2_000;

/**
 * One merchant's settlement (docs/reference.md section 13), in one transaction: the ledger decides
 * what it takes, every posting of the merchant through its `pending` made before `cutoff` that no
 * settlement took (lib/ledger/settlement-movements.ts takeForSettlement): its charges, refunds,
 * returns and their reversals, disputes, won disputes and month-end fees, and any type to come. The
 * charges whose posting it took become SETTLED with its id (a conditional update); its figures are
 * the sums of what it took. `charge.settled` for each charge, then `settlement.created`. Nothing to
 * take: no settlement. Two runs at once take each posting once (the merchant's row is locked first).
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
    const taken = await takeForSettlement(tx, { id, merchantId }, cutoff);
    if (taken.length === 0) return null;
    // The charges whose posting it took (read by the settlement's id: a day's thousands of ids are not sent).
    const settled = await moveCharges(
      tx,
      "settle",
      and(eq(charges.merchantId, merchantId), sql`${charges.id} in (${sourcesTakenBy(id, "charge")})`),
      { settledAt: now },
    );
    const chargePostings = taken.filter((p) => p.type === "charge").length;
    if (settled.length !== chargePostings)
      log.error(
        { settlement_id: id, merchant_id: merchantId, charge_postings: chargePostings, settled: settled.length },
        "a settlement took charge postings whose charges were not AUTHORIZED",
      );
    // What the merchant owes from before (a negative drawable balance: the last settlement's negative
    // net, or what came back since) is carried in; money waiting for its payout day is not (it is paid
    // out with this settlement's on that day).
    const carriedIn = Math.min(0, await drawableOf(tx, merchantId));
    const figures = settlementFigures(taken, carriedIn);
    // Read once: what the settlement says of its payout, and the payout itself.
    const payoutSettings = await payoutSettingsOf(tx, merchant.id);
    const settlement = one(
      await tx
        .insert(settlements)
        .values({
          id,
          isvAccountId: merchant.isvAccountId,
          merchantId,
          ...figures,
          payoutStatus: heldReasonOf(merchant, payoutSettings) ? "held" : "scheduled",
          cutoff,
          createdAt: now,
        })
        .returning(),
    );
    // The ledger: the net of what it took moves from pending to available; the merchant's reserves
    // hold their part of it before its payout is made (../reserves/reserves.ts).
    await postSettlement(tx, settlement, taken);
    await holdForSettlement(tx, merchantId, settlement.net - settlement.carriedIn, now);
    const refundsBy = await refundsOfCharges(tx, { settlementId: id });
    await recordEvents(
      tx,
      (await withLedgerFacts(tx, settled)).map((charge) => ({
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
    // On a payout day of the merchant's schedule, what it may draw is paid out (a negative net is
    // carried into the next settlement; on other days the money waits: ../payouts/pay-scheduled.ts).
    await scheduledPayout(tx, merchant, now, settlement.id, payoutSettings);
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

/** The merchants with something to settle before `cutoff` (of one ISV, or of all): the ledger says. */
export async function merchantsToSettle(db: Db, cutoff: Date, isvAccountId?: string, merchantId?: string) {
  const rows = await db.execute<{ merchant_id: string }>(
    merchantsWithPostingsToSettle(cutoff, { isvAccountId, merchantId }),
  );
  return rowsOf<{ merchant_id: string }>(rows).map((r) => r.merchant_id);
}
