import { and, count, eq, gte, inArray, sql, sum } from "drizzle-orm";

import { charges } from "../../db/schema";
import { type DbOrTx } from "../../db/types";

/** How far back the merchant list's volume looks. */
export const VOLUME_DAYS = 30;

/**
 * Each listed merchant's card and bank volume over the last VOLUME_DAYS days: what was captured
 * (declined attempts take nothing), less what was refunded, and how many payments; in cents, one
 * query for the page. Merchants without payments are absent (0).
 */
export async function merchantVolumes(
  db: DbOrTx,
  isvAccountId: string,
  merchantIds: string[],
  now = new Date(),
): Promise<Map<string, { amount: number; count: number }>> {
  const out = new Map<string, { amount: number; count: number }>();
  if (merchantIds.length === 0) return out;
  const since = new Date(now.getTime() - VOLUME_DAYS * 86_400_000);
  const rows = await db
    .select({
      merchantId: charges.merchantId,
      amount: sum(sql`${charges.amountCaptured} - ${charges.amountRefunded}`).mapWith(Number),
      count: count(),
    })
    .from(charges)
    .where(
      and(
        eq(charges.isvAccountId, isvAccountId),
        inArray(charges.merchantId, merchantIds),
        gte(charges.createdAt, since),
        sql`${charges.amountCaptured} > 0`,
      ),
    )
    .groupBy(charges.merchantId);
  for (const row of rows) out.set(row.merchantId, { amount: row.amount ?? 0, count: row.count });
  return out;
}
