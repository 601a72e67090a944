import { and, eq } from "drizzle-orm";

import { clock } from "../../clock";
import { one } from "../../db/one";
import { type MerchantBillRow, merchantBills, type MerchantRow, statements } from "../../db/schema";
import { type Db } from "../../db/types";
import { createId } from "../../ids";
import { postMonthEndFees } from "../../ledger/settlement-movements";
import { monthEndFeeLines } from "../fees/month-end-fees";
import { type MonthActivity, monthEndActivity, periodRange } from "./figures";
import { readMonth } from "./read-month";

/** The merchant's bill for `period`, if it was made. */
export async function billOf(db: Db, merchantId: string, period: string): Promise<MerchantBillRow | undefined> {
  const [bill] = await db
    .select()
    .from(merchantBills)
    .where(and(eq(merchantBills.merchantId, merchantId), eq(merchantBills.period, period)));
  return bill;
}

/**
 * The merchant's month-end bill for `period` (docs/reference.md section 13), made once the month has
 * ended: its ACH activity and monthly fees, from the month's ledger postings and the merchant's
 * pricing, posted to the ledger in the bill's own transaction (`monthly_fee` postings whose source
 * is the bill; the next settlement takes them). Once per merchant and period however many ask at
 * once (the billing job, a statement made before it ran): a bill already made is answered as it is.
 * None (null) for a month not yet over or with no activity: nothing is charged for it.
 */
export async function billMonth(
  db: Db,
  merchant: Pick<MerchantRow, "id" | "isvAccountId" | "application" | "defaultCapabilities">,
  period: string,
  known?: MonthActivity,
): Promise<MerchantBillRow | null> {
  const existing = await billOf(db, merchant.id, period);
  if (existing) return existing;
  const now = clock.now();
  if (now.getTime() < periodRange(period).end.getTime()) return null;
  const month = known ?? (await readMonth(db, merchant.id, period));
  if (!month) return null;
  const lines = monthEndFeeLines(merchant, monthEndActivity(month));
  // The bill and the month's statement share one id, so that the fees' balance transactions name the
  // statement they are stated on: a preview made before the month ended keeps its id when it becomes
  // final; otherwise the statement made next takes the bill's.
  const [preview] = await db
    .select({ id: statements.id })
    .from(statements)
    .where(and(eq(statements.merchantId, merchant.id), eq(statements.period, period)));
  return db.transaction(async (tx) => {
    const [bill] = await tx
      .insert(merchantBills)
      .values({
        id: preview?.id ?? createId("stmt"),
        isvAccountId: merchant.isvAccountId,
        merchantId: merchant.id,
        period,
        lines,
        total: lines.reduce((s, l) => s + l.amount, 0),
        createdAt: now,
      })
      .onConflictDoNothing()
      .returning();
    if (!bill) {
      // Another instance billed the month a moment ago: that one is the bill.
      return one(
        await tx
          .select()
          .from(merchantBills)
          .where(and(eq(merchantBills.merchantId, merchant.id), eq(merchantBills.period, period))),
      );
    }
    await postMonthEndFees(tx, bill);
    return bill;
  });
}
