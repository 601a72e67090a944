import { and, asc, desc, eq, gt, lt, type SQL } from "drizzle-orm";
import type { DbOrTx } from "../../db/client";
import { events } from "../../db/schema";
import { ApiError, notFound } from "../../api/errors";
import type { ListQuery } from "../../api/pagination";

export async function findEvent(db: DbOrTx, accountId: string, eventId: string) {
  const [row] = await db.select().from(events).where(and(eq(events.accountId, accountId), eq(events.id, eventId)));
  if (!row) throw notFound("event", eventId, "event_id");
  return row;
}

/** Newest first; `type` filters; cursors are event ids. */
export async function listEvents(db: DbOrTx, accountId: string, query: ListQuery & { type?: string }) {
  if (query.starting_after && query.ending_before) {
    throw new ApiError("invalid_request_error", "parameter_invalid", "Send starting_after or ending_before, not both", { param: "ending_before" });
  }
  const filters: SQL[] = [eq(events.accountId, accountId)];
  if (query.type) filters.push(eq(events.type, query.type));
  const cursorId = query.starting_after ?? query.ending_before;
  if (cursorId) {
    const cursor = await findEvent(db, accountId, cursorId).catch(() => {
      throw new ApiError("invalid_request_error", "parameter_invalid", `No such event: '${cursorId}'`, { param: query.starting_after ? "starting_after" : "ending_before" });
    });
    filters.push(query.starting_after ? lt(events.seq, cursor.seq) : gt(events.seq, cursor.seq));
  }
  const rows = await db.select().from(events).where(and(...filters)).orderBy(query.ending_before ? asc(events.seq) : desc(events.seq)).limit(query.limit + 1);
  const hasMore = rows.length > query.limit;
  const page = rows.slice(0, query.limit);
  if (query.ending_before) page.reverse();
  return { rows: page, hasMore };
}
