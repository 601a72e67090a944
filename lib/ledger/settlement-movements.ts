import { and, eq, isNull, lt, sql } from "drizzle-orm";

import { rowsOf } from "../db/client";
import { ledgerPostings } from "../db/schema";
import { type DbOrTx } from "../db/types";
import { pending, platform } from "./entry-helpers";
import { type Entry, post } from "./post";
import { postingFigures } from "./reads";
import { type TakenPosting } from "./settlement-figures";

// A settlement's movements: what it takes from pending, and month-end fees (see ./payment-movements.ts).

/**
 * A month-end bill's fees (ACH activity and monthly fees, docs/reference.md section 13): each line
 * taken from the merchant's `pending` to the platform's revenue, in the bill's transaction
 * (lib/domain/statements/bill-month.ts); the next settlement takes them.
 */
export async function postMonthEndFees(
  tx: DbOrTx,
  bill: {
    id: string;
    isvAccountId: string;
    merchantId: string;
    period: string;
    lines: readonly { description: string; amount: number }[];
  },
) {
  for (const line of bill.lines)
    await post(tx, {
      isvAccountId: bill.isvAccountId,
      merchantId: bill.merchantId,
      type: "monthly_fee",
      sourceId: bill.id,
      amount: -line.amount,
      description: `${line.description}, ${bill.period}`,
      entries: [pending(bill.merchantId, -line.amount), platform("processing_revenue", line.amount)],
    });
}

/** SQL: the merchant's postings that its settlement at `cutoff` takes: through its `pending`, before the cutoff, not yet taken. */
const untakenBefore = (cutoff: Date) =>
  and(isNull(ledgerPostings.settlementId), eq(ledgerPostings.movesPending, true), lt(ledgerPostings.createdAt, cutoff));

/**
 * A settlement's first step (in its transaction, the merchant's row locked): every posting of the
 * merchant that moved its `pending` money before `cutoff` and that no settlement took yet becomes
 * the settlement's, whatever its type: charges, refunds, returns and their reversals, disputes,
 * won disputes, month-end fees, and whatever type comes next (docs/reference.md section 13). Each
 * once: a posting another settlement took is not taken again. Answers them: the settlement's
 * figures are read from them (./settlement-figures.ts).
 */
export async function takeForSettlement(
  tx: DbOrTx,
  settlement: { id: string; merchantId: string },
  cutoff: Date,
): Promise<(TakenPosting & { id: string })[]> {
  return tx
    .update(ledgerPostings)
    .set({ settlementId: settlement.id })
    .where(and(eq(ledgerPostings.merchantId, settlement.merchantId), untakenBefore(cutoff)))
    .returning(postingFigures);
}

/** A query of the merchants (`merchant_id`) with something to settle before `cutoff`, of one ISV or merchant, or all. */
export function merchantsWithPostingsToSettle(cutoff: Date, owner: { isvAccountId?: string; merchantId?: string }) {
  const where = and(
    untakenBefore(cutoff),
    owner.isvAccountId ? eq(ledgerPostings.isvAccountId, owner.isvAccountId) : undefined,
    owner.merchantId ? eq(ledgerPostings.merchantId, owner.merchantId) : undefined,
  );
  return sql`select distinct ${ledgerPostings.merchantId} as merchant_id from ${ledgerPostings} where ${where} order by 1`;
}

/**
 * A settlement's money moves (in its transaction, once it is written): the net of what it took
 * moves from the merchant's `pending` to `available`, and the processor's funding drains the
 * clearing entries they made (its postings, read by its id). Answers the net moved.
 */
export async function postSettlement(
  tx: DbOrTx,
  settlement: { id: string; isvAccountId: string; merchantId: string; createdAt: Date },
  taken: readonly { id: string; net: number }[],
) {
  if (taken.length === 0) return 0;
  const net = taken.reduce((sum, p) => sum + p.net, 0);
  const base = {
    isvAccountId: settlement.isvAccountId,
    merchantId: settlement.merchantId,
    sourceId: settlement.id,
    settlementId: settlement.id,
    createdAt: settlement.createdAt,
  };
  await post(tx, {
    ...base,
    type: "settlement",
    amount: net,
    description: `Settlement ${settlement.id}`,
    entries: [
      pending(settlement.merchantId, -net),
      { account: "available", owner: settlement.merchantId, amount: net },
    ],
  });
  // The processor funds what the settlement took: each clearing account's entries in it, drained.
  const clearing = rowsOf<{ account: Entry["account"]; total: string | number }>(
    await tx.execute(sql`
      select e.account, sum(e.amount) as total from ledger_entries e
      where e.posting_id in (select p.id from ledger_postings p where p.settlement_id = ${settlement.id})
        and e.owner_id is null and e.account in ('card_clearing', 'ach_clearing', 'dispute_clearing')
      group by e.account`),
  ).map((r) => ({ account: r.account, total: Number(r.total) }));
  const funded = clearing.reduce((sum, c) => sum + c.total, 0);
  await post(tx, {
    ...base,
    type: "funding",
    amount: 0,
    description: `Funding of settlement ${settlement.id}`,
    entries: [...clearing.map((c) => platform(c.account, -c.total)), platform("platform_cash", funded)],
  });
  return net;
}
