import { and, eq, inArray, isNull, sql } from "drizzle-orm";
import type { DbOrTx } from "../../db/client";
import { webhookDeliveries, webhooks } from "../../db/schema";
import { createId } from "../../ids";
import { enqueueJobs } from "../../jobs/job-types";
import type { WebhookScope } from "../../events/catalogue";

/**
 * What a delivery holds while it is sent (lib/jobs/pools.ts caps each): its account and its
 * destination host, so a slow endpoint or a busy ISV delays only its own deliveries.
 */
export function deliveryKeys(accountId: string, url: string) {
  return [`account:${accountId}`, `host:${hostOf(url)}`];
}

/** The URL's authority without credentials, lower-cased, as written (the same in SQL below). */
export const hostOf = (url: string) => (/^[a-z][a-z0-9+.-]*:\/\/(?:[^@/?#]*@)?([^/?#]+)/i.exec(url)?.[1] ?? url).toLowerCase();
/** `hostOf(targets.url)` in SQL, for deliveries written in one statement (lib/domain/events/record-event.ts). */
export const HOST_KEY_SQL = sql`'host:' || lower(coalesce(substring(targets.url from '^[A-Za-z][A-Za-z0-9+.-]*://(?:[^@/?#]*@)?([^/?#]+)'), targets.url))`;

/**
 * The same for many events at once (a settlement's `charge.settled`s): one query for the accounts'
 * webhooks, then the deliveries and their jobs as multi-row inserts.
 */
export async function fanOutEvents(tx: DbOrTx, batch: { id: string; accountId: string; scope: WebhookScope }[]) {
  if (batch.length === 0) return;
  const accounts = [...new Set(batch.map((e) => e.accountId))];
  const targets = await tx
    .select({ id: webhooks.id, accountId: webhooks.accountId, scopes: webhooks.scopes, url: webhooks.url })
    .from(webhooks)
    .where(and(inArray(webhooks.accountId, accounts), eq(webhooks.status, "enabled"), isNull(webhooks.deletedAt)));
  const deliveries = batch.flatMap((event) =>
    targets
      .filter((t) => t.accountId === event.accountId && t.scopes.includes(event.scope))
      .map((t) => ({
        row: { id: createId("whd"), webhookId: t.id, accountId: event.accountId, eventId: event.id, nextAttemptAt: new Date() },
        keys: deliveryKeys(event.accountId, t.url),
      })),
  );
  for (let i = 0; i < deliveries.length; i += 500) {
    const chunk = deliveries.slice(i, i + 500);
    await tx.insert(webhookDeliveries).values(chunk.map((d) => d.row));
    await enqueueJobs(
      tx,
      "webhook_delivery",
      chunk.map((d) => ({ payload: { delivery_id: d.row.id }, concurrencyKeys: d.keys })),
    );
  }
}
