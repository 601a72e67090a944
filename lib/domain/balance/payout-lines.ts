import { and, asc, eq, ne } from "drizzle-orm";

import { ledgerPostings } from "../../db/schema";
import { type DbOrTx } from "../../db/types";
import { findPayout } from "../payouts/find-payout";
import { type Scope } from "../scope";
import { publicPostings } from "./list-balance-transactions";

/**
 * A payout and its lines (docs/reference.md section 18): the balance transactions it pays out,
 * oldest first, which add up to its amount (the charges less their fees, refunds, returns, disputes
 * and their fees, a negative balance carried in, or the refused payout it pays again).
 */
export async function payoutWithLines(db: DbOrTx, scope: Scope, payoutId: string) {
  const payout = await findPayout(db, scope, payoutId);
  const lines = await db
    .select()
    .from(ledgerPostings)
    .where(and(publicPostings(scope), eq(ledgerPostings.payoutId, payout.id), ne(ledgerPostings.type, "payout")))
    .orderBy(asc(ledgerPostings.seq));
  const sum = (of: (l: (typeof lines)[number]) => number) => lines.reduce((total, l) => total + of(l), 0);
  return { payout, lines, totals: { amount: sum((l) => l.amount), fee: sum((l) => l.fee), net: sum((l) => l.net) } };
}
