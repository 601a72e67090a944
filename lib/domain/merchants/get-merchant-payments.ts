import { and, desc, eq } from "drizzle-orm";

import { charges, payouts, settlements, statements } from "../../db/schema";
import { type Db } from "../../db/types";
import { merchantPayout } from "../payouts/recipient";

/** For the dashboard's merchant page: its latest charges, settlements and payouts (the caller checked the merchant is the ISV's). */
export async function getMerchantPayments(db: Db, isvAccountId: string, merchantId: string, limit = 20) {
  const [recentCharges, recentSettlements, monthly, recentPayouts] = await Promise.all([
    db
      .select()
      .from(charges)
      .where(and(eq(charges.isvAccountId, isvAccountId), eq(charges.merchantId, merchantId)))
      .orderBy(desc(charges.seq))
      .limit(limit),
    db
      .select()
      .from(settlements)
      .where(and(eq(settlements.isvAccountId, isvAccountId), eq(settlements.merchantId, merchantId)))
      .orderBy(desc(settlements.seq))
      .limit(limit),
    db
      .select({ id: statements.id, period: statements.period })
      .from(statements)
      .where(and(eq(statements.isvAccountId, isvAccountId), eq(statements.merchantId, merchantId)))
      .orderBy(desc(statements.period))
      .limit(24),
    db
      .select()
      .from(payouts)
      .where(and(eq(payouts.isvAccountId, isvAccountId), eq(payouts.merchantId, merchantId)))
      .orderBy(desc(payouts.seq))
      .limit(limit),
  ]);
  return {
    charges: recentCharges,
    settlements: recentSettlements,
    statements: monthly,
    payouts: recentPayouts.map(merchantPayout),
  };
}
