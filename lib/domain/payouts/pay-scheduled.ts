import { eq } from "drizzle-orm";

import { rowsOf } from "../../db/client";
import { merchants } from "../../db/schema";
import { type Db } from "../../db/types";
import { merchantsWithUnpaidLines } from "../../ledger/payout-draws";
import { scheduledPayout } from "./payout-for-settlement";

/**
 * The payout run (docs/reference.md section 20), after the day's settlements: each merchant whose
 * schedule makes a payout on `day` and whose money waits for one (a week's settlements on a weekly
 * schedule, a balance that had not reached its minimum) is paid out, in its own transaction with its
 * row locked; a merchant its settlement paid out today has nothing left to draw. Of one ISV or
 * merchant, or all. Answers the payouts made.
 */
export async function payScheduled(db: Db, day: Date, scope: { isvAccountId?: string; merchantId?: string } = {}) {
  const made = [];
  const candidates = rowsOf<{ merchant_id: string }>(await db.execute(merchantsWithUnpaidLines(scope)));
  for (const { merchant_id } of candidates) {
    const payout = await db.transaction(async (tx) => {
      const [merchant] = await tx.select().from(merchants).where(eq(merchants.id, merchant_id)).for("update");
      return merchant ? scheduledPayout(tx, merchant, day, null) : null;
    });
    if (payout) made.push(payout);
  }
  return made;
}
