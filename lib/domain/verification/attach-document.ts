import { clock } from "../../clock";
import { type FileRow, type MerchantRow } from "../../db/schema";
import { type DbOrTx } from "../../db/types";
import { AppError } from "../../errors";
import { checkForDocument, documentPath, type StoredCheck } from "../../verification/checks";
import { withAnswered } from "../merchants/requirements";
import { isOpen } from "../merchants/status";
import { writeMerchant } from "../merchants/write-merchant";
import { queueCheck, same, verificationUpdated } from "./status";

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
    updated_at: clock.now().toISOString(),
  };
  const path = documentPath(current);
  const updated = await writeMerchant(tx, merchant.id, {
    verification: merchant.verification.map((c) => (same(c, next) ? next : c)),
    requirements: withAnswered(merchant.requirements, (field) => field === path, {
      open: isOpen(merchant.status),
    }),
    updatedAt: clock.now(),
  });
  await queueCheck(tx, merchant.id, next);
  await verificationUpdated(tx, updated);
}
