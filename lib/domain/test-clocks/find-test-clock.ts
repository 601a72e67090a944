import { and, eq, isNull } from "drizzle-orm";

import { testClocks } from "../../db/schema";
import { type DbOrTx } from "../../db/types";
import { notFound } from "../../errors";
import type { Scope } from "../scope";

/** The account's test clock, not deleted (404 otherwise, whoever's it is). */
export async function findTestClock(db: DbOrTx, scope: Scope, id: string, param = "test_clock_id") {
  const [row] = await db
    .select()
    .from(testClocks)
    .where(and(eq(testClocks.isvAccountId, scope.isvAccountId), eq(testClocks.id, id), isNull(testClocks.deletedAt)));
  if (!row) throw notFound("test_clock", id, param);
  return row;
}
