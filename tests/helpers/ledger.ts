import { and, inArray, sql } from "drizzle-orm";

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
