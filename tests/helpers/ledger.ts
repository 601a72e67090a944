import { and, eq, gte, inArray, sql } from "drizzle-orm";

import { ledgerPostings } from "@/lib/db/schema";
import { type Db } from "@/lib/db/types";
import { availableOnFor } from "@/lib/ledger/post";
import { type PostingType } from "@/lib/schemas/ledger-values";

/**
 * For a test that moves an object's time after the fact (its row's dates set to another day): its
 * ledger postings of `types` moved to `at` as well, as if written then. The ledger refuses it (a
 * trigger): the triggers are set aside for this transaction only, never for another connection.
 */
export async function postingsAt(db: Db, sourceIds: string[], types: PostingType[], at: Date) {
  await db.transaction(async (tx) => {
    await tx.execute(sql`set local session_replication_role = replica`);
    await tx
      .update(ledgerPostings)
      .set({ createdAt: at, availableOn: availableOnFor(at) })
      .where(and(inArray(ledgerPostings.sourceId, sourceIds), inArray(ledgerPostings.type, types)));
  });
}

/**
 * For a test of a month that is over (a residual is made only then): every ledger posting of the ISV
 * written since `since` is moved to `at`, as if the month's activity had happened then.
 */
export async function isvPostingsAt(db: Db, isvAccountId: string, at: Date, since = startOfThisMonth()) {
  await db.transaction(async (tx) => {
    await tx.execute(sql`set local session_replication_role = replica`);
    await tx
      .update(ledgerPostings)
      .set({ createdAt: at, availableOn: availableOnFor(at) })
      .where(and(eq(ledgerPostings.isvAccountId, isvAccountId), gte(ledgerPostings.createdAt, since)));
  });
}

const startOfThisMonth = () => {
  const now = new Date();
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
};

/** The month before this one (YYYY-MM) and a moment in it (its 10th, noon UTC). */
export function lastMonth() {
  const now = new Date();
  const at = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 10, 12));
  return { period: at.toISOString().slice(0, 7), at };
}

/** The settlement that took the object's posting of `type` (null while none has): the ledger is where a settlement's lines are. */
export async function settlementThatTook(db: Db, type: PostingType, sourceId: string) {
  const rows = await db
    .select({ settlementId: ledgerPostings.settlementId })
    .from(ledgerPostings)
    .where(and(eq(ledgerPostings.type, type), eq(ledgerPostings.sourceId, sourceId)));
  if (rows.length !== 1) throw new Error(`${rows.length} ${type} postings of ${sourceId}, expected 1`);
  return rows[0]!.settlementId;
}

/** The sources of a settlement's postings of `type`, sorted. */
export async function sourcesTakenBy(db: Db, settlementId: string, type: PostingType) {
  const rows = await db
    .select({ sourceId: ledgerPostings.sourceId })
    .from(ledgerPostings)
    .where(and(eq(ledgerPostings.settlementId, settlementId), eq(ledgerPostings.type, type)));
  return rows.map((r) => r.sourceId).sort();
}
