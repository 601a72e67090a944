import { and, asc, eq, gte, inArray, lt } from "drizzle-orm";

import { one } from "../../db/one";
import { charges, disputes, merchants, payouts, refunds, statements } from "../../db/schema";
import { type Db } from "../../db/types";
import { invalid, notFound } from "../../errors";
import { createId } from "../../ids";
import { serializeStatement } from "../../serializers/statement";
import { recordEvent } from "../events/record-event";
import { periodRange, statementFigures } from "./figures";

export { periodOf, periodRange } from "./figures";

/**
 * The merchant's statement for `period` (docs/reference.md sections 11 and 13), made once the month
 * has ended (`final`; before that, in sandbox, a preview made again on each generation): the charges
 * captured in the month, the refunds created in it, their totals, fee lines by pricing model plus
 * the monthly fees, card brands and daily totals, and every line, kept as they were (a snapshot). A
 * period that already has a statement answers it unchanged, however many ask at once.
 */
export async function generateStatement(db: Db, merchantId: string, period: string) {
  const { start, end } = periodRange(period);
  const [existing] = await db
    .select()
    .from(statements)
    .where(and(eq(statements.merchantId, merchantId), eq(statements.period, period)));
  // Final (made after the month ended): a snapshot, answered unchanged. A preview is made again.
  if (existing?.final) return { row: existing, created: false };
  const now = new Date();
  const final = now.getTime() >= end.getTime();
  const [merchant] = await db.select().from(merchants).where(eq(merchants.id, merchantId));
  if (!merchant) throw notFound("merchant", merchantId, "merchant_id");

  const monthCharges = await db
    .select()
    .from(charges)
    .where(
      and(
        eq(charges.merchantId, merchantId),
        inArray(charges.status, ["AUTHORIZED", "SETTLED", "RETURNED"]),
        gte(charges.capturedAt, start),
        lt(charges.capturedAt, end),
      ),
    )
    .orderBy(asc(charges.capturedAt), asc(charges.seq));
  const monthRefunds = await db
    .select()
    .from(refunds)
    .where(and(eq(refunds.merchantId, merchantId), gte(refunds.createdAt, start), lt(refunds.createdAt, end)))
    .orderBy(asc(refunds.createdAt), asc(refunds.seq));
  // ACH charges the customers' banks returned in the month (whenever they were made, and even if
  // the bank reversed the return since), and the returns the banks reversed in the month.
  const monthReturns = await db
    .select()
    .from(charges)
    .where(and(eq(charges.merchantId, merchantId), gte(charges.returnedAt, start), lt(charges.returnedAt, end)))
    .orderBy(asc(charges.returnedAt), asc(charges.seq));
  const monthReversals = await db
    .select()
    .from(charges)
    .where(
      and(eq(charges.merchantId, merchantId), gte(charges.returnReversedAt, start), lt(charges.returnReversedAt, end)),
    )
    .orderBy(asc(charges.returnReversedAt), asc(charges.seq));
  // Disputes opened in the month (amount and fee taken) and won in it (amount back).
  const disputesOpened = await db
    .select()
    .from(disputes)
    .where(and(eq(disputes.merchantId, merchantId), gte(disputes.createdAt, start), lt(disputes.createdAt, end)))
    .orderBy(asc(disputes.createdAt), asc(disputes.seq));
  const disputesWon = await db
    .select()
    .from(disputes)
    .where(
      and(
        eq(disputes.merchantId, merchantId),
        eq(disputes.status, "won"),
        gte(disputes.closedAt, start),
        lt(disputes.closedAt, end),
      ),
    )
    .orderBy(asc(disputes.closedAt), asc(disputes.seq));
  if (
    monthCharges.length === 0 &&
    monthRefunds.length === 0 &&
    monthReturns.length === 0 &&
    monthReversals.length === 0 &&
    disputesOpened.length === 0 &&
    disputesWon.length === 0
  )
    throw invalid("period", `The merchant has no charges or refunds in ${period}: there is no statement to make`);

  // The payouts made in the month (each settlement's positive net on its way to the bank), as they stand now.
  const monthPayouts = await db
    .select()
    .from(payouts)
    .where(and(eq(payouts.merchantId, merchantId), gte(payouts.createdAt, start), lt(payouts.createdAt, end)))
    .orderBy(asc(payouts.createdAt), asc(payouts.seq));
  const figures = {
    ...statementFigures(merchant, {
      charges: monthCharges,
      refunds: monthRefunds,
      returns: monthReturns,
      reversals: monthReversals,
      disputesOpened,
      disputesWon,
    }),
    payouts: monthPayouts.map((p) => ({
      id: p.id,
      settlement_id: p.settlementId,
      created_at: p.createdAt.toISOString(),
      amount: p.amount,
      status: p.status,
      arrival_date: p.arrivalDate,
      failure_code: p.failureCode,
    })),
  };

  if (existing) {
    // The preview, made again with the month's activity so far (final once the month has ended);
    // only while it is still a preview, so a final statement is never changed.
    const [remade] = await db
      .update(statements)
      .set({ ...figures, final, createdAt: now })
      .where(and(eq(statements.id, existing.id), eq(statements.final, false)))
      .returning();
    if (remade) return { row: remade, created: false };
    const current = one(await db.select().from(statements).where(eq(statements.id, existing.id)));
    return { row: current, created: false };
  }

  return db.transaction(async (tx) => {
    const [row] = await tx
      .insert(statements)
      .values({
        id: createId("stmt"),
        isvAccountId: merchant.isvAccountId,
        merchantId,
        period,
        ...figures,
        final,
        createdAt: now,
      })
      .onConflictDoNothing()
      .returning();
    if (!row) {
      // Another instance made it a moment ago: that one is the statement.
      const made = one(
        await tx
          .select()
          .from(statements)
          .where(and(eq(statements.merchantId, merchantId), eq(statements.period, period))),
      );
      return { row: made, created: false };
    }
    await recordEvent(tx, {
      accountId: row.isvAccountId,
      type: "statement.created",
      objectId: row.id,
      data: serializeStatement(row),
    });
    return { row, created: true };
  });
}
