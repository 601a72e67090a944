import { and, asc, eq, gte, inArray, lt } from "drizzle-orm";

import { clock } from "../../clock";
import { one } from "../../db/one";
import { charges, disputes, merchants, payouts, refunds, statements } from "../../db/schema";
import { type Db } from "../../db/types";
import { invalid, notFound } from "../../errors";
import { createId } from "../../ids";
import { merchantPostingsBetween } from "../../ledger/reads";
import { postMonthEndFees } from "../../ledger/settlement-movements";
import { type PostingType } from "../../schemas/ledger-values";
import { serializeStatement } from "../../serializers/statement";
import { recordEvent } from "../events/record-event";
import { merchantPayout } from "../payouts/recipient";
import { periodRange, statementFigures, statementPostingTypes } from "./figures";

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
  const now = clock.now();
  const final = now.getTime() >= end.getTime();
  const [merchant] = await db.select().from(merchants).where(eq(merchants.id, merchantId));
  if (!merchant) throw notFound("merchant", merchantId, "merchant_id");

  // The month's activity as the ledger wrote it, and the objects its postings come from.
  const postings = await merchantPostingsBetween(db, merchantId, statementPostingTypes, start, end);
  if (postings.length === 0)
    throw invalid("period", `The merchant has no charges or refunds in ${period}: there is no statement to make`);
  const idsOf = (...types: PostingType[]) => [
    ...new Set(postings.filter((p) => types.includes(p.type)).map((p) => p.sourceId)),
  ];
  const chargeIds = idsOf("charge", "ach_return", "ach_return_reversal");
  const refundIds = idsOf("refund");
  const disputeIds = idsOf("dispute", "dispute_fee", "dispute_won");
  const [chargeRows, refundRows, disputeRows] = await Promise.all([
    chargeIds.length ? db.select().from(charges).where(inArray(charges.id, chargeIds)) : [],
    refundIds.length ? db.select().from(refunds).where(inArray(refunds.id, refundIds)) : [],
    disputeIds.length ? db.select().from(disputes).where(inArray(disputes.id, disputeIds)) : [],
  ]);

  // The payouts made in the month (each settlement's positive net on its way to the bank), as they stand now.
  const monthPayouts = await db
    .select()
    .from(payouts)
    .where(and(eq(payouts.merchantId, merchantId), gte(payouts.createdAt, start), lt(payouts.createdAt, end)))
    .orderBy(asc(payouts.createdAt), asc(payouts.seq));
  const { monthEndFees, ...monthFigures } = statementFigures(merchant, {
    postings,
    charges: new Map(chargeRows.map((c) => [c.id, c])),
    refunds: new Map(refundRows.map((r) => [r.id, r])),
    disputes: new Map(disputeRows.map((d) => [d.id, d])),
  });
  const figures = {
    ...monthFigures,
    payouts: monthPayouts.map(merchantPayout).map((p) => ({
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
    const remade = await db.transaction(async (tx) => {
      const [row] = await tx
        .update(statements)
        .set({ ...figures, final, createdAt: now })
        .where(and(eq(statements.id, existing.id), eq(statements.final, false)))
        .returning();
      // Final: its month-end fees are taken (once: a final statement is never made again).
      if (row?.final) await postMonthEndFees(tx, row, monthEndFees);
      return row;
    });
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
    if (row.final) await postMonthEndFees(tx, row, monthEndFees);
    await recordEvent(tx, {
      accountId: row.isvAccountId,
      type: "statement.created",
      objectId: row.id,
      data: serializeStatement(row),
    });
    return { row, created: true };
  });
}
