import type { OutboxRow } from "../db/schema";

/** An e-mail or text message as the outbox lists it (the operator CLI and the sandbox helper). */
export function serializeOutboxMessage(row: OutboxRow) {
  return {
    object: row.channel === "sms" ? ("sms" as const) : ("email" as const),
    channel: row.channel,
    id: row.id,
    kind: row.kind,
    to: row.to,
    sender_name: row.senderName,
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
