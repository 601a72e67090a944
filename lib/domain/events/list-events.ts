import { and, eq, type SQL } from "drizzle-orm";

import { cursorPage } from "../../db/cursor-page";
import { events } from "../../db/schema";
import { type DbOrTx } from "../../db/types";
import { notFound } from "../../errors";
import type { EventType } from "../../events/catalogue";
import type { ListQuery } from "../../schemas/list";

export async function findEvent(db: DbOrTx, accountId: string, eventId: string) {
  const [row] = await db
    .select()
    .from(events)
    .where(and(eq(events.accountId, accountId), eq(events.id, eventId)));
  if (!row) throw notFound("event", eventId, "event_id");
  return row;
}

/** Newest first; `type` filters; cursors are event ids. */
export async function listEvents(db: DbOrTx, accountId: string, query: ListQuery & { type?: EventType }) {
  const filters: SQL[] = [eq(events.accountId, accountId)];
  if (query.type) filters.push(eq(events.type, query.type));
  return cursorPage(query, {
    noun: "event",
    seq: events.seq,
    filters,
    positionOf: async (id) =>
      (
        await db
          .select({ seq: events.seq })
          .from(events)
          .where(and(eq(events.accountId, accountId), eq(events.id, id)))
      )[0]?.seq ?? null,
    select: (where, orderBy, limit) => db.select().from(events).where(where).orderBy(orderBy).limit(limit),
  });
}
