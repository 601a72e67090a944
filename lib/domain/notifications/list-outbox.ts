import { desc, eq } from "drizzle-orm";
import type { DbOrTx } from "../../db/client";
import { outbox } from "../../db/schema";

/** The outbox, newest first: one account's messages, or every message (operator). */
export async function listOutbox(db: DbOrTx, options: { accountId?: string; limit?: number }) {
  const query = db.select().from(outbox);
  return (options.accountId ? query.where(eq(outbox.accountId, options.accountId)) : query).orderBy(desc(outbox.createdAt)).limit(options.limit ?? 50);
}

export function serializeOutboxMessage(row: typeof outbox.$inferSelect) {
  return {
    object: row.channel === "sms" ? ("sms" as const) : ("email" as const),
    channel: row.channel,
    id: row.id,
    kind: row.kind,
    to: row.to,
    subject: row.subject,
    text: row.text,
    html: row.html,
    locale: row.locale,
    merchant_id: row.merchantId,
    transport: row.transport,
    sent_at: row.sentAt?.toISOString() ?? null,
    created_at: row.createdAt.toISOString(),
  };
}
