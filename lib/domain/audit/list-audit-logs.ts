import { and, eq, gte, inArray, lt, sql } from "drizzle-orm";

import { cursorPage } from "../../db/cursor-page";
import { auditLogs } from "../../db/schema";
import { type DbOrTx } from "../../db/types";
import type { ListQuery } from "../../schemas/list";

export type AuditLogQuery = ListQuery & {
  resource_id?: string;
  actor?: string;
  /** The dashboard's filters: one action of the catalogue, and any of these actors. */
  action?: string;
  actor_ids?: string[];
  "created[gte]"?: number;
  "created[lte]"?: number;
};

/** GET /v1/audit_logs: the ISV's entries (its own changes and its merchants'), newest first, filtered. */
export async function listAuditLogs(db: DbOrTx, accountId: string, query: AuditLogQuery) {
  const mine = eq(auditLogs.accountId, accountId);
  return cursorPage(query, {
    noun: "audit log",
    seq: auditLogs.seq,
    filters: [
      mine,
      ...(query.resource_id ? [eq(auditLogs.resourceId, query.resource_id)] : []),
      ...(query.actor ? [eq(auditLogs.actorId, query.actor)] : []),
      ...(query.action ? [eq(auditLogs.action, query.action)] : []),
      ...(query.actor_ids ? [query.actor_ids.length ? inArray(auditLogs.actorId, query.actor_ids) : sql`false`] : []),
      ...(query["created[gte]"] !== undefined ? [gte(auditLogs.createdAt, new Date(query["created[gte]"]))] : []),
      // The whole millisecond: an entry is stored to the microsecond (PostgreSQL) and shown to the millisecond.
      ...(query["created[lte]"] !== undefined ? [lt(auditLogs.createdAt, new Date(query["created[lte]"] + 1))] : []),
    ],
    positionOf: async (id) => {
      const [row] = await db
        .select({ seq: auditLogs.seq })
        .from(auditLogs)
        .where(and(mine, eq(auditLogs.id, id)));
      return row?.seq ?? null;
    },
    select: (where, orderBy, limit) => db.select().from(auditLogs).where(where).orderBy(orderBy).limit(limit),
  });
}
