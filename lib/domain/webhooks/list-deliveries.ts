import { and, asc, eq, inArray } from "drizzle-orm";

import { cursorPage } from "../../db/cursor-page";
import { webhookAttempts, webhookDeliveries } from "../../db/schema";
import { type DbOrTx } from "../../db/types";
import type { ListQuery } from "../../schemas/list";
import { findWebhook } from "./find-webhook";

export async function listDeliveries(db: DbOrTx, accountId: string, webhookId: string, query: ListQuery) {
  const webhook = await findWebhook(db, accountId, webhookId);
  const { rows: page, hasMore } = await cursorPage(query, {
    noun: "delivery",
    seq: webhookDeliveries.seq,
    filters: [eq(webhookDeliveries.webhookId, webhook.id)],
    positionOf: async (id) =>
      (
        await db
          .select({ seq: webhookDeliveries.seq })
          .from(webhookDeliveries)
          .where(and(eq(webhookDeliveries.webhookId, webhook.id), eq(webhookDeliveries.id, id)))
      )[0]?.seq ?? null,
    select: (where, orderBy, limit) => db.select().from(webhookDeliveries).where(where).orderBy(orderBy).limit(limit),
  });
  const attempts = page.length
    ? await db
        .select()
        .from(webhookAttempts)
        .where(
          inArray(
            webhookAttempts.deliveryId,
            page.map((d) => d.id),
          ),
        )
        .orderBy(asc(webhookAttempts.attemptedAt))
    : [];
  return { rows: page.map((d) => ({ delivery: d, attempts: attempts.filter((a) => a.deliveryId === d.id) })), hasMore };
}
