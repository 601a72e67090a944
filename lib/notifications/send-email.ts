import { eq, type SQL, sql } from "drizzle-orm";
import nodemailer from "nodemailer";

import { deferredWritesOf } from "../db/deferred-writes";
import { outbox } from "../db/schema";
import { type Db, type DbOrTx } from "../db/types";
import { env } from "../env";
import { createId } from "../ids";
import { RetryLater } from "../jobs/definition";
import { enqueueJob, type JobPayload } from "../jobs/job-types";
import { must } from "../must";

/** In the caller's transaction: the message in the outbox and, with SMTP configured, a job to send it. */
export async function queueEmail(
  tx: DbOrTx,
  message: {
    accountId: string;
    merchantId?: string;
    kind: string;
    to: string;
    /** The From line's display name (the business a customer pays, the ISV's brand); SMTP_FROM's address. */
    senderName?: string;
    subject: string;
    text: string;
    html: string;
    locale: string;
  },
) {
  const id = createId("msg");
  const smtp = Boolean(env.SMTP_URL);
  const row = {
    id,
    ...message,
    merchantId: message.merchantId ?? null,
    senderName: message.senderName?.trim() || null,
    transport: smtp ? ("smtp" as const) : ("outbox" as const),
  };
  // A transaction that writes at its end (lib/db/deferred-writes.ts): the message goes in its last
  // statement (the row as insertOutboxOfJson reads it).
  const later = deferredWritesOf(tx);
  if (later)
    later.mail.push({
      id,
      account_id: row.accountId,
      merchant_id: row.merchantId,
      kind: row.kind,
      to: row.to,
      sender_name: row.senderName,
      subject: row.subject,
      text: row.text,
      html: row.html,
      locale: row.locale,
      transport: row.transport,
    });
  else await tx.insert(outbox).values(row);
  if (smtp) await enqueueJob(tx, "email", { outbox_id: id });
  return id;
}

/** SQL: the e-mail messages of a JSON array of queueEmail's deferred rows, inserted into the outbox (a WITH clause's body). */
export const insertOutboxOfJson = (json: SQL) => sql`
  insert into outbox (id, account_id, merchant_id, kind, "to", sender_name, subject, text, html, locale, transport)
  select id, account_id, merchant_id, kind, "to", sender_name, subject, text, html, locale, transport
  from jsonb_to_recordset(${json}::jsonb) as t(id text, account_id text, merchant_id text, kind text, "to" text,
    sender_name text, subject text, text text, html text, locale text, transport text)`;

/**
 * The From line: SMTP_FROM's address (`name <address>` or a bare address) under the message's sender
 * name when it has one, so that a customer sees the business it paid and a merchant its ISV.
 */
export function fromLine(smtpFrom: string, senderName: string | null | undefined) {
  if (!senderName) return smtpFrom;
  const address = /<([^>]+)>\s*$/.exec(smtpFrom)?.[1] ?? smtpFrom.trim();
  return { name: senderName, address };
}

let transport: ReturnType<typeof nodemailer.createTransport> | undefined;

export async function sendEmail(db: Db, { outbox_id }: JobPayload<"email">) {
  const [message] = await db.select().from(outbox).where(eq(outbox.id, outbox_id));
  if (!message || message.sentAt) return;
  // Queued only when SMTP_URL is set (recordEmail): a deployment that unset it since retries, then fails.
  transport ??= nodemailer.createTransport(must(env.SMTP_URL, "SMTP_URL"));
  try {
    await transport.sendMail({
      from: fromLine(env.SMTP_FROM, message.senderName),
      to: message.to,
      subject: message.subject,
      text: message.text,
      html: message.html,
    });
  } catch (error) {
    await db
      .update(outbox)
      .set({ error: error instanceof Error ? error.message : String(error) })
      .where(eq(outbox.id, message.id));
    throw new RetryLater(error instanceof Error ? error.message : String(error));
  }
  await db.update(outbox).set({ sentAt: new Date(), error: null }).where(eq(outbox.id, message.id));
}
