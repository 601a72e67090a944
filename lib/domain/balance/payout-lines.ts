import { and, eq, inArray } from "drizzle-orm";

import { charges } from "../../db/schema";
import { type DbOrTx } from "../../db/types";
import { payoutLinePostings } from "../../ledger/balance-transactions";
import { findPayout } from "../payouts/find-payout";
import { type Scope } from "../scope";

/**
 * A payout and its lines (docs/reference.md section 18): the balance transactions it pays out,
 * oldest first, which add up to its amount (the charges less their fees, refunds, returns, disputes
 * and their fees, a negative balance carried in, or the refused payout it pays again).
 */
export async function payoutWithLines(db: DbOrTx, scope: Scope, payoutId: string) {
  const payout = await findPayout(db, scope, payoutId);
  const lines = await payoutLinePostings(db, scope, payout.id);
  const sum = (of: (l: (typeof lines)[number]) => number) => lines.reduce((total, l) => total + of(l), 0);
  // How each payment on a line was paid (card and last 4, or bank account), for the line's words.
  const chargeIds = [...new Set(lines.map((l) => l.sourceId).filter((id) => id.startsWith("ch_")))];
  const methods = chargeIds.length
    ? await db
        .select({
          id: charges.id,
          paymentMethod: charges.paymentMethod,
          ach: charges.ach,
          cardBrand: charges.cardBrand,
          cardLast4: charges.cardLast4,
        })
        .from(charges)
        .where(and(eq(charges.merchantId, payout.merchantId ?? ""), inArray(charges.id, chargeIds)))
    : [];
  return {
    payout,
    lines,
    paidWith: new Map(methods.map(({ id, ...method }) => [id, method])),
    totals: { amount: sum((l) => l.amount), fee: sum((l) => l.fee), net: sum((l) => l.net) },
  };
}
