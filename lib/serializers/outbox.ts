import type { OutboxRow } from "../db/schema";

/**
 * The links of a merchant's own mail that prove its inbox: an e-mailed sign-in (the step-up before
 * a bank account or key change), a "this wasn't me" report, a new contact e-mail's confirmation.
 */
const merchantInboxLinks = /(\/home\/(?:login|report|confirm-email)\/)[^\s"'<>&)]+/g;
const HIDDEN = "(hidden: sent to the merchant)";

/**
 * An e-mail or text message as the outbox lists it: in full for the operator (CLI); for the ISV
 * (the sandbox's helper) a message sent to one of its merchants has the links above hidden, so the
 * ISV cannot pass the merchant's e-mail step-up or use its reports (docs/reference.md section 15).
 */
export function serializeOutboxMessage(row: OutboxRow, view: "operator" | "isv" = "operator") {
  const hide = (text: string) =>
    view === "isv" && row.merchantId ? text.replace(merchantInboxLinks, `$1${HIDDEN}`) : text;
  return {
    object: row.channel === "sms" ? ("sms" as const) : ("email" as const),
    channel: row.channel,
    id: row.id,
    kind: row.kind,
    to: row.to,
    sender_name: row.senderName,
    subject: row.subject,
    text: hide(row.text),
    html: hide(row.html),
    locale: row.locale,
    merchant_id: row.merchantId,
    transport: row.transport,
    sent_at: row.sentAt?.toISOString() ?? null,
    created_at: row.createdAt.toISOString(),
  };
}
