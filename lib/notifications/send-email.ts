import { eq } from "drizzle-orm";
import nodemailer from "nodemailer";
import type { Db, DbOrTx } from "../db/client";
import { outbox } from "../db/schema";
import { createId } from "../ids";
import { env } from "../env";
import { enqueueJob, RetryLater, type JobRow, type JobType } from "../jobs/runner";

export const EMAIL_JOB = "email";

/** In the caller's transaction: the message in the outbox and, with SMTP configured, a job to send it. */
export async function queueEmail(tx: DbOrTx, message: { accountId: string; merchantId?: string; kind: string; to: string; subject: string; text: string; html: string; locale: string }) {
  const id = createId("msg");
  const smtp = Boolean(env.SMTP_URL);
  await tx.insert(outbox).values({ id, ...message, merchantId: message.merchantId ?? null, transport: smtp ? "smtp" : "outbox" });
  if (smtp) await enqueueJob(tx, EMAIL_JOB, { outbox_id: id }, { maxAttempts: 6 });
  return id;
}

let transport: ReturnType<typeof nodemailer.createTransport> | undefined;

async function sendEmail(db: Db, job: JobRow) {
  const [message] = await db.select().from(outbox).where(eq(outbox.id, job.payload.outbox_id as string));
  if (!message || message.sentAt) return;
  transport ??= nodemailer.createTransport(env.SMTP_URL!);
  try {
    await transport.sendMail({ from: env.SMTP_FROM, to: message.to, subject: message.subject, text: message.text, html: message.html });
  } catch (error) {
    await db.update(outbox).set({ error: error instanceof Error ? error.message : String(error) }).where(eq(outbox.id, message.id));
    throw new RetryLater(error instanceof Error ? error.message : String(error));
  }
  await db.update(outbox).set({ sentAt: new Date(), error: null }).where(eq(outbox.id, message.id));
}

export const emailJobType: JobType = { handler: sendEmail, backoffMs: (n) => Math.min(60_000 * 2 ** (n - 1), 3_600_000), maxAttempts: 6 };
