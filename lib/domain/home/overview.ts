import { and, count, desc, eq, gte, isNull, sql, sum } from "drizzle-orm";

import { charges, type MerchantRow, settlements, statements } from "../../db/schema";
import { type Db } from "../../db/types";
import { nextMidnightUtc } from "../settlements/run-settlement";

// The home's overview (docs/reference.md section 15): what the merchant took today and this month
// (captured less refunded, in cents; days and months in UTC, the settlement's clock), what the next
// settlement will take up, the latest payments and the monthly statements.

const volumeSince = (db: Db, merchantId: string, since: Date) =>
  db
    .select({
      amount: sum(sql`${charges.amountCaptured} - ${charges.amountRefunded}`).mapWith(Number),
      count: count(),
    })
    .from(charges)
    .where(and(eq(charges.merchantId, merchantId), gte(charges.createdAt, since), sql`${charges.amountCaptured} > 0`));

export async function homeOverview(db: Db, merchant: MerchantRow, now = new Date()) {
  const day = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
  const month = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
  const [[today], [thisMonth], [unsettled], recent, monthly, settled] = await Promise.all([
    volumeSince(db, merchant.id, day),
    volumeSince(db, merchant.id, month),
    db
      .select({
        amount: sum(sql`${charges.amountCaptured} - ${charges.amountRefunded}`).mapWith(Number),
        count: count(),
      })
      .from(charges)
      .where(
        and(eq(charges.merchantId, merchant.id), isNull(charges.settlementId), sql`${charges.amountCaptured} > 0`),
      ),
    db.select().from(charges).where(eq(charges.merchantId, merchant.id)).orderBy(desc(charges.seq)).limit(10),
    db
      .select({ id: statements.id, period: statements.period })
      .from(statements)
      .where(eq(statements.merchantId, merchant.id))
      .orderBy(desc(statements.period))
      .limit(24),
    db
      .select()
      .from(settlements)
      .where(eq(settlements.merchantId, merchant.id))
      .orderBy(desc(settlements.seq))
      .limit(10),
  ]);
  return {
    today: { amount: today?.amount ?? 0, count: today?.count ?? 0 },
    month: { amount: thisMonth?.amount ?? 0, count: thisMonth?.count ?? 0 },
    nextSettlement: { at: nextMidnightUtc(now), amount: unsettled?.amount ?? 0, count: unsettled?.count ?? 0 },
    recent,
    statements: monthly,
    settlements: settled,
  };
}
