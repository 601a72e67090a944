import { eq } from "drizzle-orm";

import { decryptApplication, keyedDigest } from "../../crypto/field-encryption";
import { one } from "../../db/one";
import { type FileRow, files, type MerchantRow, merchants } from "../../db/schema";
import { type Db, type DbOrTx } from "../../db/types";
import { AppError } from "../../errors";
import { enqueueJob, type JobPayload } from "../../jobs/job-types";
import {
  checkForDocument,
  documentFinding,
  documentPath,
  planChecks,
  type StoredCheck,
} from "../../verification/checks";
import { type CheckOutcome, verificationProvider } from "../../verification/provider";
import { getAccount } from "../accounts/get-account";
import { applicationProblems } from "../merchants/application";
import { recordMerchantEvent } from "../merchants/merchant-event";
import { askFor, withAnswered } from "../merchants/requirements";
import { signatureIsCurrent } from "../merchants/signature";
import { moveMerchant } from "../merchants/status";
import { reconsiderPayouts } from "../payouts/reconsider-payouts";

// Verification's jobs (docs/reference.md section 14): the checks start with each submission, each
// runs as its own job against the provider (lib/verification/provider.ts), and the last one to
// finish hands the merchant to underwriting, which decides only when no check is pending. A
// document attached to a check that asked for one runs it again. The checks live on the merchant
// row (`verification`), written under its row lock, so the merchant's readers see them as they are.

const same = (a: Pick<StoredCheck, "type" | "subject">, b: Pick<StoredCheck, "type" | "subject">) =>
  a.type === b.type && a.subject === b.subject;

const jobKey = (merchantId: string, c: StoredCheck) => `vchk_${merchantId}_${c.type}_${c.subject}_${c.version}`;

async function queueCheck(tx: DbOrTx, merchantId: string, c: StoredCheck) {
  const delay = verificationProvider().delayMs ?? 0;
  await enqueueJob(
    tx,
    "verification_check",
    { merchant_id: merchantId, type: c.type, subject: c.subject, version: c.version },
    { key: jobKey(merchantId, c), runAt: delay > 0 ? new Date(Date.now() + delay) : undefined },
  );
}

async function verificationUpdated(tx: DbOrTx, merchant: MerchantRow) {
  const isv = await getAccount(tx, merchant.isvAccountId);
  await recordMerchantEvent(tx, "merchant.verification_updated", merchant, { isv });
}

/**
 * In the submission's transaction (the merchant row locked): the checks the application needs,
 * each new or changed one pending and queued; unchanged results kept. Returns the merchant as written.
 */
export async function startChecks(tx: DbOrTx, merchant: MerchantRow): Promise<MerchantRow> {
  const plan = planChecks(merchant.verification, decryptApplication(merchant.application), keyedDigest, new Date());
  if (!plan.changed) return merchant;
  const updated = one(
    await tx.update(merchants).set({ verification: plan.checks }).where(eq(merchants.id, merchant.id)).returning(),
  );
  for (const c of plan.queued) await queueCheck(tx, merchant.id, c);
  await verificationUpdated(tx, updated);
  return updated;
}

/** When no check is pending any more and the application waits for a decision: underwriting runs. */
async function handOver(tx: DbOrTx, merchant: MerchantRow) {
  if (merchant.status === "COMPLETED" && !merchant.verification.some((c) => c.status === "pending"))
    await enqueueJob(tx, "underwriting", { merchant_id: merchant.id });
}

/** Writes one check's outcome if the check is still the version the job was for; false otherwise. */
async function recordOutcome(
  tx: DbOrTx,
  payload: JobPayload<"verification_check">,
  outcome: CheckOutcome,
): Promise<boolean> {
  const [merchant] = await tx.select().from(merchants).where(eq(merchants.id, payload.merchant_id)).for("update");
  const current = merchant?.verification.find((c) => same(c, payload));
  if (!merchant || !current || current.version !== payload.version || current.status !== "pending") return false;
  const refused = current.document_file_id !== null && outcome.status !== "verified";
  const next: StoredCheck = {
    ...current,
    ...outcome,
    refusals: current.refusals + (refused ? 1 : 0),
    updated_at: new Date().toISOString(),
  };
  const verification = merchant.verification.map((c) => (same(c, next) ? next : c));
  // While the merchant is still answering other requests (IN_PROGRESS), a refused document is asked
  // for again at once; once submitted, underwriting words the request.
  let requirements = merchant.requirements;
  const finding = documentFinding(next);
  if (merchant.status === "IN_PROGRESS" && merchant.submittedAt !== null && finding)
    requirements = askFor(requirements, finding);
  const updated = one(
    await tx
      .update(merchants)
      .set({ verification, requirements, updatedAt: new Date() })
      .where(eq(merchants.id, merchant.id))
      .returning(),
  );
  await verificationUpdated(tx, updated);
  if (current.document_file_id !== null && !finding) await resubmitIfAnswered(tx, updated);
  await handOver(tx, updated);
  // An approved merchant's new bank account verified (or still not): its payouts go, or wait.
  if (updated.status === "APPROVED" && next.type === "bank_account") await reconsiderPayouts(tx, updated);
  return true;
}

/**
 * A document answered (or failed for good) and it was the last thing underwriting asked for: the
 * application goes back to underwriting by itself (no second "submit" for a merchant who only had
 * a photo to send). Not while a field is still asked, a check still runs, or the application or
 * its signature is no longer complete (the ISV changed it meanwhile): then the merchant submits.
 */
async function resubmitIfAnswered(tx: DbOrTx, merchant: MerchantRow) {
  if (merchant.status !== "IN_PROGRESS" || merchant.submittedAt === null) return;
  if ((merchant.requirements?.currently_due.length ?? 0) > 0) return;
  if (merchant.verification.some((c) => c.status === "pending" || documentFinding(c))) return;
  const isv = await getAccount(tx, merchant.isvAccountId);
  if (applicationProblems(merchant.application).length > 0 || !signatureIsCurrent(merchant, isv)) return;
  const submitted = await moveMerchant(tx, merchant.id, "submitApplication", {
    requirements: null,
    submittedAt: new Date(),
  });
  await recordMerchantEvent(tx, "merchant.submitted", submitted, { isv });
  await enqueueJob(tx, "underwriting", { merchant_id: merchant.id });
}

/** The job: one check, against the provider, outside any transaction; then its outcome recorded. */
export async function runVerificationCheck(db: Db, payload: JobPayload<"verification_check">) {
  const [merchant] = await db.select().from(merchants).where(eq(merchants.id, payload.merchant_id));
  const check = merchant?.verification.find((c) => same(c, payload));
  if (!merchant || !check || check.version !== payload.version || check.status !== "pending") return;
  const provider = verificationProvider();
  const application = decryptApplication(merchant.application);
  let outcome: CheckOutcome;
  if (check.document_file_id) {
    const [file] = await db.select().from(files).where(eq(files.id, check.document_file_id));
    outcome = await provider.checkDocument({
      type: check.type,
      subject: check.subject,
      application,
      refusals: check.refusals,
      document: file
        ? { id: file.id, filename: file.filename, type: file.type, size: file.size }
        : { id: check.document_file_id, filename: "unreadable (deleted)", type: "unknown", size: 0 },
    });
  } else outcome = await provider.check({ type: check.type, subject: check.subject, application });
  await db.transaction((tx) => recordOutcome(tx, payload, outcome));
}

/** Every try failed (the provider is down): the check fails with the reason, and an operator decides. */
export async function giveUpVerificationCheck(tx: DbOrTx, payload: JobPayload<"verification_check">, error: unknown) {
  await recordOutcome(tx, payload, {
    status: "failed",
    code: "verification_error",
    message: `The check could not run (${error instanceof Error ? error.message : String(error)}); an operator reviews it.`,
  });
}

/** Which check a document would answer, and whether it asks for one now (else 409 `document_not_needed`). */
export function checkAwaitingDocument(merchant: MerchantRow, file: Pick<FileRow, "purpose" | "subject">) {
  const target = checkForDocument(file.purpose, file.subject);
  if (!target) return null;
  const current = merchant.verification.find((c) => same(c, target));
  if (current?.status !== "requires_document") {
    const who = target.subject === "merchant" ? "the business" : target.subject;
    const state = current ? `its ${target.type} check is ${current.status}` : `no ${target.type} check has run yet`;
    throw new AppError("document_not_needed", `No document is needed for ${who}: ${state}`, { param: "purpose" });
  }
  return current;
}

/**
 * In the upload's transaction (the merchant row locked): a document for a check that asked for one
 * makes the check pending again (the job queued) and answers its request. The merchant stays where
 * it is (the portal session it uploads from stays valid): when the check has answered, a refusal is
 * asked again at once, and an answer that leaves nothing else asked resubmits (recordOutcome).
 */
export async function attachDocument(tx: DbOrTx, merchant: MerchantRow, file: FileRow) {
  const current = checkAwaitingDocument(merchant, file);
  if (!current) return;
  const next: StoredCheck = {
    ...current,
    status: "pending",
    code: null,
    message: null,
    document_file_id: file.id,
    version: current.version + 1,
    updated_at: new Date().toISOString(),
  };
  const path = documentPath(current);
  const updated = one(
    await tx
      .update(merchants)
      .set({
        verification: merchant.verification.map((c) => (same(c, next) ? next : c)),
        requirements: withAnswered(merchant.requirements, (field) => field === path),
        updatedAt: new Date(),
      })
      .where(eq(merchants.id, merchant.id))
      .returning(),
  );
  await queueCheck(tx, merchant.id, next);
  await verificationUpdated(tx, updated);
}
