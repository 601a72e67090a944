import { one } from "../db/one";
import { ledgerEntries, type LedgerPostingRow, ledgerPostings } from "../db/schema";
import { type DbOrTx } from "../db/types";
import { createId } from "../ids";
import { nextBusinessDay, nextMidnightUtc } from "../payouts/business-days";
import { type LedgerAccountName, type PostingType } from "../schemas/ledger-values";

/** One side of a posting: signed cents to one account of one owner (a merchant, an ISV, or the platform: null). */
export type Entry = { account: LedgerAccountName; owner: string | null; amount: number };

export type Posting = {
  isvAccountId: string;
  merchantId: string | null;
  type: PostingType;
  /** The object it comes from: `ch_`, `re_`, `dp_`, `po_`, `stl_`. */
  sourceId: string;
  /** What it means to the merchant, signed: its `amount`, `fee` and `net` (amount − fee). */
  amount: number;
  fee?: number;
  description: string;
  entries: Entry[];
  createdAt?: Date;
  availableOn?: string;
  settlementId?: string | null;
  payoutId?: string | null;
};

/**
 * The business day funds moved at `at` are due to be paid out: the settlement at the next 00:00 UTC
 * takes them and its payout arrives the business day after (docs/reference.md sections 13 and 16).
 */
export const availableOnFor = (at: Date) => nextBusinessDay(nextMidnightUtc(at));

/** Refuses a posting whose entries are not whole cents or do not sum to zero (the database refuses it too). */
export function assertBalanced(entries: readonly Entry[]) {
  if (entries.length < 2) throw new Error("A ledger posting moves money between at least two accounts");
  let sum = 0;
  for (const entry of entries) {
    if (!Number.isSafeInteger(entry.amount)) throw new Error(`A ledger entry is whole cents, not ${entry.amount}`);
    sum += entry.amount;
  }
  if (sum !== 0) throw new Error(`A ledger posting's entries sum to ${sum}, not 0`);
}

/**
 * The one writer of money (docs/reference.md section 18): a posting and its entries, in the caller's
 * transaction (the change that moved the money commits with it or not at all). Entries of zero cents
 * are left out; a posting that moves nothing is not written (null).
 */
export async function post(tx: DbOrTx, posting: Posting): Promise<LedgerPostingRow | null> {
  const entries = posting.entries.filter((e) => e.amount !== 0);
  if (entries.length === 0) return null;
  assertBalanced(entries);
  const fee = posting.fee ?? 0;
  const createdAt = posting.createdAt ?? new Date();
  const row = one(
    await tx
      .insert(ledgerPostings)
      .values({
        id: createId("txn"),
        isvAccountId: posting.isvAccountId,
        merchantId: posting.merchantId,
        type: posting.type,
        sourceId: posting.sourceId,
        amount: posting.amount,
        fee,
        net: posting.amount - fee,
        description: posting.description,
        availableOn: posting.availableOn ?? availableOnFor(createdAt),
        settlementId: posting.settlementId ?? null,
        payoutId: posting.payoutId ?? null,
        createdAt,
      })
      .returning(),
  );
  await tx
    .insert(ledgerEntries)
    .values(
      entries.map((e) => ({ postingId: row.id, account: e.account, ownerId: e.owner, amount: e.amount, createdAt })),
    );
  return row;
}
