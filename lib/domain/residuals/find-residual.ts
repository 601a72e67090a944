import { and, asc, desc, eq, gt, lt } from "drizzle-orm";

import { cursorPage } from "../../db/cursor-page";
import { residualLines, residuals } from "../../db/schema";
import { type DbOrTx } from "../../db/types";
import { AppError, notFound } from "../../errors";
import { type ListQuery } from "../../schemas/list";

// An ISV's residuals (docs/reference.md section 19): its own only; another ISV's id is "no such residual".

export async function findResidual(db: DbOrTx, isvAccountId: string, id: string) {
  const [row] = await db
    .select()
    .from(residuals)
    .where(and(eq(residuals.isvAccountId, isvAccountId), eq(residuals.id, id)));
  if (!row) throw notFound("residual", id);
  return row;
}

/** GET /v1/residuals: newest first. */
export function listResiduals(db: DbOrTx, isvAccountId: string, query: ListQuery) {
  const mine = eq(residuals.isvAccountId, isvAccountId);
  return cursorPage(query, {
    noun: "residual",
    seq: residuals.seq,
    filters: [mine],
    positionOf: async (id) => {
      const [row] = await db
        .select({ seq: residuals.seq })
        .from(residuals)
        .where(and(mine, eq(residuals.id, id)));
      return row?.seq ?? null;
    },
    select: (where, orderBy, limit) => db.select().from(residuals).where(where).orderBy(orderBy).limit(limit),
  });
}

/**
 * GET /v1/residuals/{id}/lines: its lines in their order (the largest amount first), a page at a
 * time; the cursor is a line's merchant id.
 */
export async function listResidualLines(db: DbOrTx, isvAccountId: string, id: string, query: ListQuery) {
  const residual = await findResidual(db, isvAccountId, id);
  if (query.starting_after && query.ending_before)
    throw new AppError("parameter_invalid", "Send starting_after or ending_before, not both", {
      param: "ending_before",
    });
  const ofIt = eq(residualLines.residualId, residual.id);
  const cursor = query.starting_after ?? query.ending_before;
  let after: ReturnType<typeof gt> | undefined;
  if (cursor) {
    const [at] = await db
      .select({ position: residualLines.position })
      .from(residualLines)
      .where(and(ofIt, eq(residualLines.merchantId, cursor)));
    if (!at)
      throw new AppError("parameter_invalid", `No such line: '${cursor}'`, {
        param: query.starting_after ? "starting_after" : "ending_before",
      });
    after = query.starting_after ? gt(residualLines.position, at.position) : lt(residualLines.position, at.position);
  }
  const rows = await db
    .select()
    .from(residualLines)
    .where(and(ofIt, after))
    .orderBy(query.ending_before ? desc(residualLines.position) : asc(residualLines.position))
    .limit(query.limit + 1);
  const hasMore = rows.length > query.limit;
  const page = rows.slice(0, query.limit);
  if (query.ending_before) page.reverse();
  return { residual, rows: page, hasMore };
}

/** Every line of a residual, in order (its downloads). */
export const allResidualLines = (db: DbOrTx, residualId: string) =>
  db.select().from(residualLines).where(eq(residualLines.residualId, residualId)).orderBy(asc(residualLines.position));
