import { and, eq, inArray, isNull, lt, or, type SQL, sql } from "drizzle-orm";

import { rowsOf } from "../db/client";
import { charges, ledgerPostings } from "../db/schema";
import { type DbOrTx } from "../db/types";
import { type PostingType } from "../schemas/ledger-values";
import { pending, platform } from "./entry-helpers";
import { type Entry, post } from "./post";
import { postingFigures } from "./reads";
import { type TakenPosting } from "./settlement-figures";

// A settlement's movements: what it takes from pending, and month-end fees (see ./payment-movements.ts).

/**
 * A final statement's month-end fees (ACH activity and monthly fees, docs/reference.md section 13):
 * each line taken from the merchant's `pending` to the platform's revenue, in the statement's
 * transaction; the next settlement takes them.
 */
export async function postMonthEndFees(
  tx: DbOrTx,
  statement: { id: string; isvAccountId: string; merchantId: string; period: string },
  lines: readonly { description: string; amount: number }[],
) {
  for (const line of lines)
    await post(tx, {
      isvAccountId: statement.isvAccountId,
      merchantId: statement.merchantId,
      type: "monthly_fee",
      sourceId: statement.id,
      amount: -line.amount,
      description: `${line.description}, ${statement.period}`,
      entries: [pending(statement.merchantId, -line.amount), platform("processing_revenue", line.amount)],
    });
}

/** What a settlement took besides its charges, by kind: the ids of the objects whose postings it takes. */
export type SettlementTook = {
  refunds: string[];
  returns: string[];
  reversals: string[];
  disputes: string[];
  disputesWon: string[];
  /** Charges whose return the bank reversed before any settlement took it: both postings go together (net 0). */
  returnedAndReversed: string[];
  /** Final statements whose month-end fees no settlement has taken yet. */
  monthEndFees: string[];
};

/**
 * A settlement's first step (in its transaction, once its charges carry its id): the postings of
 * what it took are marked as its own: its charges (read by the settlement's id on their rows, an
 * index range: a day's thousands of ids are not sent) and `took`. Each once: a posting another
 * settlement took is not taken again. Answers them: the settlement's figures are read from them
 * (./settlement-figures.ts).
 */
export async function takeForSettlement(
  tx: DbOrTx,
  settlement: { id: string; merchantId: string },
  took: SettlementTook,
): Promise<(TakenPosting & { id: string })[]> {
  const of = (types: PostingType[], ids: string[]): SQL | undefined =>
    ids.length ? and(inArray(ledgerPostings.type, types), inArray(ledgerPostings.sourceId, ids)) : undefined;
  const which = or(
    and(
      inArray(ledgerPostings.type, ["charge", "platform_fee"]),
      sql`${ledgerPostings.sourceId} in (select ${charges.id} from ${charges} where ${charges.settlementId} = ${settlement.id})`,
    ),
    of(["refund", "platform_fee_refund"], took.refunds),
    of(["ach_return"], took.returns),
    of(["ach_return_reversal"], took.reversals),
    of(["dispute", "dispute_fee"], took.disputes),
    of(["dispute_won"], took.disputesWon),
    of(["ach_return", "ach_return_reversal"], took.returnedAndReversed),
    of(["monthly_fee"], took.monthEndFees),
  );
  return tx
    .update(ledgerPostings)
    .set({ settlementId: settlement.id })
    .where(and(eq(ledgerPostings.merchantId, settlement.merchantId), isNull(ledgerPostings.settlementId), which))
    .returning(postingFigures);
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

/** The month-end fees (postings of final statements) made before `cutoff` that no settlement has taken. */
const monthEndFeesDue = (cutoff: Date) =>
  and(
    eq(ledgerPostings.type, "monthly_fee"),
    isNull(ledgerPostings.settlementId),
    lt(ledgerPostings.createdAt, cutoff),
  );

/** The statements whose month-end fees the merchant's settlement at `cutoff` takes (docs/reference.md section 13). */
export async function monthEndFeesToTake(tx: DbOrTx, merchantId: string, cutoff: Date) {
  return tx
    .selectDistinct({ statementId: ledgerPostings.sourceId })
    .from(ledgerPostings)
    .where(and(eq(ledgerPostings.merchantId, merchantId), monthEndFeesDue(cutoff)));
}

/** A query of the merchants (`merchant_id`) with month-end fees due before `cutoff`, of one ISV or merchant, or all. */
export function merchantsWithMonthEndFeesDue(cutoff: Date, owner: { isvAccountId?: string; merchantId?: string }) {
  const where = and(
    monthEndFeesDue(cutoff),
    owner.isvAccountId ? eq(ledgerPostings.isvAccountId, owner.isvAccountId) : undefined,
    owner.merchantId ? eq(ledgerPostings.merchantId, owner.merchantId) : undefined,
  );
  return sql`select ${ledgerPostings.merchantId} as merchant_id from ${ledgerPostings} where ${where}`;
}
