import { and, eq } from "drizzle-orm";

import { payouts } from "../../db/schema";
import { type DbOrTx } from "../../db/types";
import { notFound } from "../../errors";
import { type Scope, withinScope } from "../scope";

/** One payout within the caller's scope (an ISV's merchants', or a merchant's own): another's is a 404. */
export async function findPayout(db: DbOrTx, scope: Scope, id: string) {
  const [row] = await db
    .select()
    .from(payouts)
    .where(and(eq(payouts.id, id), withinScope(payouts, scope)));
  if (!row) throw notFound("payout", id);
  return row;
}
