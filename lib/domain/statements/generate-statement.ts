import { and, asc, eq, gte, lt } from "drizzle-orm";

import { clock } from "../../clock";
import { one } from "../../db/one";
import { merchants, payouts, statements } from "../../db/schema";
import { type Db } from "../../db/types";
import { invalid, notFound } from "../../errors";
import { createId } from "../../ids";
import { serializeStatement } from "../../serializers/statement";
import { recordEvent } from "../events/record-event";
import { monthEndFeeLines } from "../fees/month-end-fees";
import { merchantPayout } from "../payouts/recipient";
import { billMonth } from "./bill-month";
import { monthEndActivity, periodRange, statementFigures } from "./figures";
import { readMonth } from "./read-month";

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
  const month = await readMonth(db, merchantId, period);
  if (!month)
    throw invalid("period", `The merchant has no charges or refunds in ${period}: there is no statement to make`);
  // The month-end fees: a final statement's are its month's bill, which the billing job made (or
  // makes now, the same call, if the statement is made before the job ran); a preview's are what the
  // bill would be. The statement itself posts nothing.
  const bill = final ? await billMonth(db, merchant, period, month) : null;
  const monthEnd = bill ? bill.lines : monthEndFeeLines(merchant, monthEndActivity(month));

  // The payouts made in the month (each settlement's positive net on its way to the bank), as they stand now.
  const monthPayouts = await db
    .select()
    .from(payouts)
    .where(and(eq(payouts.merchantId, merchantId), gte(payouts.createdAt, start), lt(payouts.createdAt, end)))
    .orderBy(asc(payouts.createdAt), asc(payouts.seq));
  const figures = {
    ...statementFigures(month, monthEnd),
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
        // A final statement shares its bill's id (./bill-month.ts).
        id: bill?.id ?? createId("stmt"),
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
