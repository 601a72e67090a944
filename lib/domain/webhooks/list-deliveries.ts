import { and, asc, desc, eq, gt, inArray, lt, type SQL } from "drizzle-orm";
import type { DbOrTx } from "../../db/client";
import { webhookAttempts, webhookDeliveries } from "../../db/schema";
import { ApiError } from "../../api/errors";
import type { ListQuery } from "../../api/pagination";
import { findWebhook } from "./find-webhook";

export async function listDeliveries(db: DbOrTx, accountId: string, webhookId: string, query: ListQuery) {
  const webhook = await findWebhook(db, accountId, webhookId);
  const filters: SQL[] = [eq(webhookDeliveries.webhookId, webhook.id)];
  const cursorId = query.starting_after ?? query.ending_before;
  if (cursorId) {
    const [cursor] = await db.select({ seq: webhookDeliveries.seq }).from(webhookDeliveries).where(and(eq(webhookDeliveries.webhookId, webhook.id), eq(webhookDeliveries.id, cursorId)));
    if (!cursor) throw new ApiError("invalid_request_error", "parameter_invalid", `No such delivery: '${cursorId}'`, { param: query.starting_after ? "starting_after" : "ending_before" });
    filters.push(query.starting_after ? lt(webhookDeliveries.seq, cursor.seq) : gt(webhookDeliveries.seq, cursor.seq));
  }
  const rows = await db.select().from(webhookDeliveries).where(and(...filters))
    .orderBy(query.ending_before ? asc(webhookDeliveries.seq) : desc(webhookDeliveries.seq)).limit(query.limit + 1);
  const hasMore = rows.length > query.limit;
  const page = rows.slice(0, query.limit);
  if (query.ending_before) page.reverse();
  const attempts = page.length ? await db.select().from(webhookAttempts).where(inArray(webhookAttempts.deliveryId, page.map((d) => d.id))).orderBy(asc(webhookAttempts.attemptedAt)) : [];
  return { rows: page.map((d) => ({ delivery: d, attempts: attempts.filter((a) => a.deliveryId === d.id) })), hasMore };
}
