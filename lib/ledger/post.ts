import { clock } from "../clock";
import { ledgerEntries, type LedgerPostingRow, ledgerPostings } from "../db/schema";
import { type DbOrTx } from "../db/types";
import { createId } from "../ids";
import { must } from "../must";
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
  return (await postAll(tx, [posting]))[0] ?? null;
}

/**
 * Several postings at once (a payment's charge and its platform fee): one statement whatever their
 * number. Answers the rows written, in order (a posting that moves nothing is left out).
 */
export async function postAll(tx: DbOrTx, postings: readonly Posting[]): Promise<LedgerPostingRow[]> {
  const written = postings
    .map((posting) => ({ posting, entries: posting.entries.filter((e) => e.amount !== 0) }))
    .filter((p) => p.entries.length > 0);
  if (written.length === 0) return [];
  for (const p of written) assertBalanced(p.entries);
  const withIds = written.map((w) => ({ ...w, id: createId("txn"), createdAt: w.posting.createdAt ?? clock.now() }));
  // The entries are written by the same statement as their postings (a data-modifying WITH): their
  // posting's id and time are known before, and PostgreSQL checks their foreign key and their balance
  // (the statement's trigger) once the whole statement has written both.
  const entries = tx.$with("entries", {}).as(
    tx
      .insert(ledgerEntries)
      .values(
        withIds.flatMap(({ id, createdAt, entries }) =>
          entries.map((e) => ({ postingId: id, account: e.account, ownerId: e.owner, amount: e.amount, createdAt })),
        ),
      )
      .getSQL(),
  );
  const inserted = await tx
    .with(entries)
    .insert(ledgerPostings)
    .values(
      withIds.map(({ posting, id, createdAt }) => {
        const fee = posting.fee ?? 0;
        return {
          id,
          isvAccountId: posting.isvAccountId,
          merchantId: posting.merchantId,
          type: posting.type,
          sourceId: posting.sourceId,
          amount: posting.amount,
          fee,
          net: posting.amount - fee,
          description: posting.description,
          availableOn: posting.availableOn ?? availableOnFor(createdAt),
          // Its entries as written (a pending entry of 0 cents included: a charge whose fee is its amount still settles).
          movesPending: posting.entries.some((e) => e.account === "pending" && e.owner === posting.merchantId),
          settlementId: posting.settlementId ?? null,
          payoutId: posting.payoutId ?? null,
          createdAt,
        };
      }),
    )
    .returning();
  // In the order given (RETURNING's order is not promised).
  const byId = new Map(inserted.map((row) => [row.id, row]));
  return withIds.map(({ id }) => must(byId.get(id), `the posting ${id} just written`));
}
