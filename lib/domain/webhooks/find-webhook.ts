import { and, eq, isNull } from "drizzle-orm";

import { type WebhookRow, webhooks } from "../../db/schema";
import { type DbOrTx } from "../../db/types";
import { notFound } from "../../errors";

/** Within the caller's account only; a deleted webhook is gone (404). */
export async function findWebhook(db: DbOrTx, accountId: string, webhookId: string): Promise<WebhookRow> {
  const [row] = await db
    .select()
    .from(webhooks)
    .where(and(eq(webhooks.accountId, accountId), eq(webhooks.id, webhookId), isNull(webhooks.deletedAt)));
  if (!row) throw notFound("webhook", webhookId, "webhook_id");
  return row;
}
