import { eq } from "drizzle-orm";

import { clock } from "../../clock";
import { decryptApplication } from "../../crypto/field-encryption";
import { files, type MerchantRow, merchants } from "../../db/schema";
import { type Db, type DbOrTx } from "../../db/types";
import { enqueueJob, type JobPayload } from "../../jobs/job-types";
import { documentFinding, type StoredCheck } from "../../verification/checks";
import { type CheckOutcome, verificationProvider } from "../../verification/provider";
import { getAccount } from "../accounts/get-account";
import { applicationProblems } from "../merchants/application";
import { recordMerchantEvent } from "../merchants/merchant-event";
import { askFor } from "../merchants/requirements";
import { signatureIsCurrent } from "../merchants/signature";
import { moveMerchant } from "../merchants/status";
import { writeMerchant } from "../merchants/write-merchant";
import { reconsiderPayouts } from "../payouts/reconsider-payouts";
import { same, verificationUpdated } from "./status";

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
    updated_at: clock.now().toISOString(),
  };
  const verification = merchant.verification.map((c) => (same(c, next) ? next : c));
  // While the merchant is still answering other requests (IN_PROGRESS), a refused document is asked
  // for again at once; once submitted, underwriting words the request.
  let requirements = merchant.requirements;
  const finding = documentFinding(next);
  if (merchant.status === "IN_PROGRESS" && merchant.submittedAt !== null && finding)
    requirements = askFor(requirements, finding);
  const updated = await writeMerchant(tx, merchant.id, { verification, requirements, updatedAt: clock.now() });
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
    submittedAt: clock.now(),
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
