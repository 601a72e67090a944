import { and, eq } from "drizzle-orm";

import { cursorPage } from "../../db/cursor-page";
import type { StatementRow } from "../../db/schema";
import { statements } from "../../db/schema";
import { type DbOrTx } from "../../db/types";
import { notFound } from "../../errors";
import type { ListQuery } from "../../schemas/list";

/** One statement of a merchant the caller may see (the route checked the merchant). */
export async function findStatement(db: DbOrTx, merchantId: string, id: string): Promise<StatementRow> {
  const [row] = await db
    .select()
    .from(statements)
    .where(and(eq(statements.id, id), eq(statements.merchantId, merchantId)));
  if (!row) throw notFound("statement", id);
  return row;
}

/** GET /v1/statements/{merchantId}: newest first. */
export async function listStatements(db: DbOrTx, merchantId: string, query: ListQuery) {
  return cursorPage(query, {
    noun: "statement",
    seq: statements.seq,
    filters: [eq(statements.merchantId, merchantId)],
    positionOf: async (id) => {
      const [row] = await db
        .select({ seq: statements.seq })
        .from(statements)
        .where(and(eq(statements.merchantId, merchantId), eq(statements.id, id)));
      return row?.seq ?? null;
    },
    select: (where, orderBy, limit) => db.select().from(statements).where(where).orderBy(orderBy).limit(limit),
  });
}
