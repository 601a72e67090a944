import { eq } from "drizzle-orm";

import { clock } from "../../clock";
import { testClocks } from "../../db/schema";
import { type DbOrTx } from "../../db/types";
import { invalidState } from "../../errors";

/**
 * The time an object lives at: its test clock's `frozen_time` (docs/reference.md section 21), or
 * now. While its clock is advancing (or deleted), the object cannot change: 409 `invalid_state`.
 */
export async function objectTime(db: DbOrTx, testClockId: string | null): Promise<Date> {
  if (!testClockId) return clock.now();
  const [row] = await db.select().from(testClocks).where(eq(testClocks.id, testClockId));
  if (!row || row.deletedAt) throw invalidState(`The test clock ${testClockId} was deleted`);
  if (row.status !== "ready")
    throw invalidState(`The test clock ${testClockId} is ${row.status}: wait until its status is ready`);
  return row.frozenTime;
}
