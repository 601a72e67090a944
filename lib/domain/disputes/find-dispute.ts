import { and, eq } from "drizzle-orm";

import { disputes } from "../../db/schema";
import { type DbOrTx } from "../../db/types";
import { notFound } from "../../errors";
import { type Scope, withinScope } from "../scope";
import { disputeColumns } from "./status";

/** One dispute within the caller's scope (an ISV's merchants', or a merchant's own): another's is a 404. */
export async function findDispute(db: DbOrTx, scope: Scope, id: string) {
  const [row] = await db
    .select(disputeColumns)
    .from(disputes)
    .where(and(eq(disputes.id, id), withinScope(disputes, scope)));
  if (!row) throw notFound("dispute", id);
  return row;
}
