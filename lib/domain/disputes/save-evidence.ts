import { and, eq } from "drizzle-orm";

import { clock } from "../../clock";
import { type DisputeRow, disputes, files } from "../../db/schema";
import { type Db, type DbOrTx } from "../../db/types";
import { invalid, invalidState, notFound } from "../../errors";
import { evidenceFileFields, type SaveEvidence } from "../../schemas/disputes";
import { type DisputeView } from "../../serializers/dispute";
import { createFile, sameFile } from "../files/create-file";
import { type MerchantScope, type Scope } from "../scope";
import { findDispute } from "./find-dispute";
import { mergeEvidence, whyNotAnswerable } from "./rules";
import { answerable, disputeEvent, disputeView, lockDispute } from "./status";
import { submitLocked } from "./submit-dispute";

/** Each file the evidence names is the dispute's merchant's, uploaded as dispute evidence (else 404 / 400). */
async function checkEvidenceFiles(tx: DbOrTx, dispute: DisputeRow, given: NonNullable<SaveEvidence["evidence"]>) {
  for (const field of evidenceFileFields) {
    const id = given[field];
    if (!id) continue;
    const [file] = await tx
      .select({ purpose: files.purpose })
      .from(files)
      .where(and(eq(files.id, id), eq(files.merchantId, dispute.merchantId)));
    if (!file) throw notFound("file", id, `evidence.${field}`);
    if (file.purpose !== "dispute_evidence")
      throw invalid(
        `evidence.${field}`,
        `File ${id} was uploaded as ${file.purpose}: evidence files are uploaded with purpose dispute_evidence`,
      );
  }
}

/**
 * POST /v1/disputes/{id} (and the home's form as the merchant types): the fields given merged into
 * the saved evidence (the row locked: two saves of different fields keep both), `dispute.updated`;
 * with `submit`, submitted in the same transaction. 409 once submitted, closed, or past its deadline.
 */
export async function saveEvidence(db: Db, scope: Scope, id: string, input: SaveEvidence, now = clock.now()) {
  return db.transaction(async (tx) => {
    const current = await lockDispute(tx, scope, id);
    const why = whyNotAnswerable(current, now);
    if (why) throw invalidState(why);
    let row = current;
    let shown: DisputeView | null = null;
    if (input.evidence && Object.keys(input.evidence).length > 0) {
      await checkEvidenceFiles(tx, current, input.evidence);
      const [saved] = await tx
        .update(disputes)
        .set({ evidence: mergeEvidence(current.evidence, input.evidence), updatedAt: now })
        .where(answerable(id, now))
        .returning();
      if (!saved) throw invalidState(`Dispute ${id} can no longer be answered`);
      row = saved;
      if (!input.submit) shown = await disputeEvent(tx, "dispute.updated", row);
    }
    if (input.submit) return submitLocked(tx, row, now);
    return shown ?? disputeView(tx, row.id);
  });
}

/**
 * One file of the merchant's answer, as it is picked (the home's dispute page): refused before the
 * file is kept when the dispute can no longer be answered; then the rules of POST /v1/files with
 * purpose `dispute_evidence`, and saved into the evidence like POST /v1/disputes/{id} (which says
 * again, under the dispute's lock, whether it can still be answered).
 */
export async function attachEvidenceFile(
  db: Db,
  scope: MerchantScope,
  disputeId: string,
  field: (typeof evidenceFileFields)[number],
  file: { filename?: string; bytes: Buffer },
) {
  const why = whyNotAnswerable(await findDispute(db, scope, disputeId), clock.now());
  if (why) throw invalidState(why);
  // A file the merchant already gave as evidence (a receipt for two disputes) is used again, not refused.
  const saved =
    (await sameFile(db, scope.merchantId, "dispute_evidence", file.bytes)) ??
    (await createFile(db, scope, {
      purpose: "dispute_evidence",
      merchant_id: scope.merchantId,
      filename: file.filename,
      bytes: file.bytes,
    }));
  const dispute = await saveEvidence(db, scope, disputeId, { evidence: { [field]: saved.id } });
  return { file: saved, dispute };
}
