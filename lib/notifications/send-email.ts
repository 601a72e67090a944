import { eq } from "drizzle-orm";
import nodemailer from "nodemailer";

import { outbox } from "../db/schema";
import { type Db, type DbOrTx } from "../db/types";
import { env } from "../env";
import { createId } from "../ids";
import { RetryLater } from "../jobs/definition";
import { enqueueJob, type JobPayload } from "../jobs/job-types";

/** In the caller's transaction: the message in the outbox and, with SMTP configured, a job to send it. */
export async function queueEmail(
  tx: DbOrTx,
  message: {
    accountId: string;
    merchantId?: string;
    kind: string;
    to: string;
    subject: string;
    text: string;
    html: string;
    locale: string;
  },
) {
  const id = createId("msg");
  const smtp = Boolean(env.SMTP_URL);
  await tx
    .insert(outbox)
    .values({ id, ...message, merchantId: message.merchantId ?? null, transport: smtp ? "smtp" : "outbox" });
  if (smtp) await enqueueJob(tx, "email", { outbox_id: id });
  return id;
}

let transport: ReturnType<typeof nodemailer.createTransport> | undefined;

export async function sendEmail(db: Db, { outbox_id }: JobPayload<"email">) {
  const [message] = await db.select().from(outbox).where(eq(outbox.id, outbox_id));
  if (!message || message.sentAt) return;
  transport ??= nodemailer.createTransport(env.SMTP_URL!);
  try {
    await transport.sendMail({
      from: env.SMTP_FROM,
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
