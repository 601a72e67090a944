import { and, eq, gt, inArray, isNotNull, isNull, lt, lte, type SQL } from "drizzle-orm";

import { hostedBaseUrl } from "../../branding/hosts";
import { decryptApplication } from "../../crypto/field-encryption";
import { cursorPage } from "../../db/cursor-page";
import { charges, type DisputeRow, disputes, files, merchants } from "../../db/schema";
import { type Db, type DbOrTx } from "../../db/types";
import { env } from "../../env";
import { invalid, invalidState, notFound } from "../../errors";
import { createId } from "../../ids";
import { enqueueJob, type JobPayload } from "../../jobs/job-types";
import { log } from "../../log";
import { queueEmail } from "../../notifications/send-email";
import { disputeOpened } from "../../notifications/templates";
import { paymentProcessor } from "../../processors";
import { type DisputeReason, type DisputeStatus, evidenceFileFields, type SaveEvidence } from "../../schemas/disputes";
import type { ListQuery } from "../../schemas/list";
import { serializeDispute } from "../../serializers/dispute";
import { getAccount } from "../accounts/get-account";
import { brandOf, disputeFeeOf } from "../accounts/isv-facts";
import { recordEvent } from "../events/record-event";
import { createFile } from "../files/create-file";
import { merchantLocale } from "../merchants/merchant-facts";
import { type MerchantScope, type Scope, withinScope } from "../scope";
import {
  disputedAmount,
  type DisputeMove,
  disputeMoves,
  EVIDENCE_WINDOW_MS,
  filledEvidence,
  mergeEvidence,
  sandboxDecision,
  whyNotAnswerable,
} from "./rules";

// Disputes (docs/reference.md section 16). The card processor reports them (the sandbox: its
// disputed card, when its charge settles); the merchant answers with evidence, saved in parts and
// submitted once, or accepts; the deadline loses an unanswered one; the card's bank decides on the
// evidence. Every write of `status` is a named move (./rules.ts): a conditional update. Settlement
// takes a dispute's amount and fee, and returns a won one's amount (disputeSettlementPredicates).

type MoveColumns = Omit<Partial<typeof disputes.$inferInsert>, "status" | "id">;

async function moveDispute(tx: DbOrTx, move: DisputeMove, where: SQL, set: MoveColumns = {}) {
  const { from, to } = disputeMoves[move];
  const closing = to === "won" || to === "lost";
  const now = new Date();
  const [row] = await tx
    .update(disputes)
    .set({ ...set, status: to, updatedAt: now, ...(closing ? { closedAt: now } : {}) })
    .where(and(inArray(disputes.status, [...from]), where))
    .returning();
  return row ?? null;
}

const disputeEvent = (tx: DbOrTx, type: "dispute.created" | "dispute.updated" | "dispute.closed", row: DisputeRow) =>
  recordEvent(tx, { accountId: row.isvAccountId, type, objectId: row.id, data: serializeDispute(row) });

/**
 * A dispute of a settled card charge, reported by the processor: in one transaction (the charge's
 * row locked, so a refund racing it either lands first and lowers the amount, or finds the charge
 * disputed and is refused) the dispute is written with what the customer still paid and the ISV's
 * dispute fee, the charge is marked, `dispute.created`, the deadline's job, and an e-mail to the
 * merchant. A charge disputed already, or refunded in full, opens none (null).
 */
export async function openDispute(db: Db, chargeId: string, reason: DisputeReason, now = new Date()) {
  return db.transaction(async (tx) => {
    const [charge] = await tx.select().from(charges).where(eq(charges.id, chargeId)).for("update");
    if (!charge || charge.disputeId || charge.paymentMethod !== "card" || charge.status !== "SETTLED") return null;
    const amount = disputedAmount(charge);
    if (amount === 0) return null;
    const [merchant] = await tx.select().from(merchants).where(eq(merchants.id, charge.merchantId));
    const isv = await getAccount(tx, charge.isvAccountId);
    const [dispute] = await tx
      .insert(disputes)
      .values({
        id: createId("dp"),
        isvAccountId: charge.isvAccountId,
        merchantId: charge.merchantId,
        chargeId: charge.id,
        amount,
        fee: disputeFeeOf(isv),
        reason,
        status: "needs_response",
        evidenceDueBy: new Date(now.getTime() + EVIDENCE_WINDOW_MS),
        createdAt: now,
        updatedAt: now,
      })
      .returning();
    await tx.update(charges).set({ disputeId: dispute!.id }).where(eq(charges.id, charge.id));
    await disputeEvent(tx, "dispute.created", dispute!);
    await enqueueJob(
      tx,
      "dispute_deadline",
      { dispute_id: dispute!.id },
      { runAt: dispute!.evidenceDueBy, key: `dispute_deadline_${dispute!.id}` },
    );
    const app = decryptApplication(merchant!.application) as { main_contact_person?: { email?: string } };
    const to = app.main_contact_person?.email;
    if (to) {
      const locale = merchantLocale(merchant!);
      await queueEmail(tx, {
        accountId: charge.isvAccountId,
        merchantId: charge.merchantId,
        kind: "dispute_opened",
        to,
        locale,
        ...disputeOpened({
          brand: brandOf(isv),
          locale,
          amount,
          fee: dispute!.fee,
          reason,
          chargedAt: charge.createdAt,
          dueBy: dispute!.evidenceDueBy,
          url: `${hostedBaseUrl(isv)}/home/disputes/${dispute!.id}`,
        }),
      });
    }
    log.warn({ dispute_id: dispute!.id, charge_id: charge.id, merchant_id: charge.merchantId }, "dispute opened");
    return dispute!;
  });
}

/**
 * The `card_disputes` job: of a settlement's card charges, those the processor says their customers
 * disputed open a dispute each (one transaction each; a second run opens none: one per charge).
 */
export async function checkCardDisputes(db: Db, { settlement_id }: JobPayload<"card_disputes">) {
  const candidates = await db
    .select({ id: charges.id, reference: charges.processorReference })
    .from(charges)
    .where(
      and(
        eq(charges.settlementId, settlement_id),
        eq(charges.paymentMethod, "card"),
        eq(charges.status, "SETTLED"),
        isNull(charges.disputeId),
        isNotNull(charges.processorReference),
      ),
    );
  if (candidates.length === 0) return;
  const reported = new Map(
    (await paymentProcessor().disputes(candidates.map((c) => c.reference!))).map((d) => [d.reference, d.reason]),
  );
  for (const charge of candidates) {
    const reason = reported.get(charge.reference!);
    if (reason) await openDispute(db, charge.id, reason);
  }
}

/** One dispute within the caller's scope (an ISV's merchants', or a merchant's own): another's is a 404. */
export async function findDispute(db: DbOrTx, scope: Scope, id: string) {
  const [row] = await db
    .select()
    .from(disputes)
    .where(and(eq(disputes.id, id), withinScope(disputes, scope)));
  if (!row) throw notFound("dispute", id);
  return row;
}

/** The dispute's row locked for the change, within scope (404 otherwise). */
async function lockDispute(tx: DbOrTx, scope: Scope, id: string) {
  const [row] = await tx
    .select()
    .from(disputes)
    .where(and(eq(disputes.id, id), withinScope(disputes, scope)))
    .for("update");
  if (!row) throw notFound("dispute", id);
  return row;
}

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

/** Still answerable at `now`: the dispute waits for evidence and its deadline has not passed (the SQL guard of every change). */
const answerable = (id: string, now: Date) =>
  and(eq(disputes.id, id), eq(disputes.status, "needs_response"), gt(disputes.evidenceDueBy, now))!;

/**
 * POST /v1/disputes/{id} (and the home's form as the merchant types): the fields given merged into
 * the saved evidence (the row locked: two saves of different fields keep both), `dispute.updated`;
 * with `submit`, submitted in the same transaction. 409 once submitted, closed, or past its deadline.
 */
export async function saveEvidence(db: Db, scope: Scope, id: string, input: SaveEvidence, now = new Date()) {
  return db.transaction(async (tx) => {
    const current = await lockDispute(tx, scope, id);
    const why = whyNotAnswerable(current, now);
    if (why) throw invalidState(why);
    let row = current;
    if (input.evidence && Object.keys(input.evidence).length > 0) {
      await checkEvidenceFiles(tx, current, input.evidence);
      const [saved] = await tx
        .update(disputes)
        .set({ evidence: mergeEvidence(current.evidence, input.evidence), updatedAt: now })
        .where(answerable(id, now))
        .returning();
      if (!saved) throw invalidState(`Dispute ${id} can no longer be answered`);
      row = saved;
      if (!input.submit) await disputeEvent(tx, "dispute.updated", row);
    }
    return input.submit ? submitLocked(tx, row, now) : row;
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
  const why = whyNotAnswerable(await findDispute(db, scope, disputeId), new Date());
  if (why) throw invalidState(why);
  const saved = await createFile(db, scope, {
    purpose: "dispute_evidence",
    merchant_id: scope.merchantId,
    filename: file.filename,
    bytes: file.bytes,
  });
  const dispute = await saveEvidence(db, scope, disputeId, { evidence: { [field]: saved.id } });
  return { file: saved, dispute };
}

/** Submits a dispute whose row the caller locked: needs_response → under_review, once. */
async function submitLocked(tx: DbOrTx, current: DisputeRow, now: Date) {
  const why = whyNotAnswerable(current, now);
  if (why) throw invalidState(why);
  if (filledEvidence(current.evidence).length === 0)
    throw invalid("evidence", "Save some evidence (a text or a file) before submitting it", "parameter_missing");
  const submitted = await moveDispute(tx, "submit", answerable(current.id, now), { submittedAt: now });
  if (!submitted) throw invalidState(`Dispute ${current.id} can no longer be submitted`);
  await disputeEvent(tx, "dispute.updated", submitted);
  // The sandbox's card bank answers within seconds; a real processor reports the decision later.
  if (env.APP_ENV === "sandbox")
    await enqueueJob(
      tx,
      "dispute_decision",
      { dispute_id: submitted.id },
      { runAt: new Date(now.getTime() + 2_000), key: `dispute_decision_${submitted.id}` },
    );
  return submitted;
}

/**
 * POST /v1/disputes/{id}/submit: the saved evidence goes to the card's bank, once. Two submits at
 * once: the first moves it, the second waits for the row and gets 409 `invalid_state`.
 */
export async function submitDispute(db: Db, scope: Scope, id: string, now = new Date()) {
  return db.transaction(async (tx) => submitLocked(tx, await lockDispute(tx, scope, id), now));
}

/** POST /v1/disputes/{id}/accept: the merchant gives the amount up; lost at once, `dispute.closed`. */
export async function acceptDispute(db: Db, scope: Scope, id: string) {
  return db.transaction(async (tx) => {
    const current = await lockDispute(tx, scope, id);
    if (current.status !== "needs_response")
      throw invalidState(`Cannot accept: the dispute is ${current.status}, expected needs_response`);
    const lost = await moveDispute(tx, "accept", eq(disputes.id, id));
    await disputeEvent(tx, "dispute.closed", lost!);
    return lost!;
  });
}

/** The `dispute_deadline` job: unanswered at `evidence_due_by`, the dispute is lost (`dispute.closed`). */
export async function expireDispute(db: Db, { dispute_id }: JobPayload<"dispute_deadline">, now = new Date()) {
  await db.transaction(async (tx) => {
    const lost = await moveDispute(tx, "expire", and(eq(disputes.id, dispute_id), lte(disputes.evidenceDueBy, now))!);
    if (lost) await disputeEvent(tx, "dispute.closed", lost);
  });
}

/** The `dispute_decision` job (sandbox): the card bank's answer to the evidence (./rules.ts sandboxDecision). */
export async function decideDispute(db: Db, { dispute_id }: JobPayload<"dispute_decision">) {
  await db.transaction(async (tx) => {
    const [row] = await tx.select().from(disputes).where(eq(disputes.id, dispute_id));
    if (!row) return;
    const decision = sandboxDecision(row.evidence);
    if (!decision) return;
    const closed = await moveDispute(tx, decision, eq(disputes.id, dispute_id));
    if (closed) await disputeEvent(tx, "dispute.closed", closed);
  });
}

/**
 * What a settlement with `cutoff` takes of disputes (beside ../charges/status.ts settleablePredicates):
 * the disputes opened before the cutoff that no settlement took yet (amount and fee), and the won
 * disputes, already taken, whose amount no settlement returned yet.
 */
export function disputeSettlementPredicates(cutoff: Date) {
  return {
    opened: and(isNull(disputes.settlementId), lt(disputes.createdAt, cutoff))!,
    won: and(
      eq(disputes.status, "won"),
      isNotNull(disputes.settlementId),
      isNull(disputes.wonSettlementId),
      lt(disputes.closedAt, cutoff),
    )!,
  };
}

/** GET /v1/disputes: newest first, filtered by merchant, charge and status. */
export async function listDisputes(
  db: DbOrTx,
  scope: Scope,
  query: ListQuery & { merchant_id?: string; charge_id?: string; status?: DisputeStatus },
) {
  const filters = [
    withinScope(disputes, scope),
    ...(query.merchant_id ? [eq(disputes.merchantId, query.merchant_id)] : []),
    ...(query.charge_id ? [eq(disputes.chargeId, query.charge_id)] : []),
    ...(query.status ? [eq(disputes.status, query.status)] : []),
  ];
  return cursorPage(query, {
    noun: "dispute",
    seq: disputes.seq,
    filters,
    positionOf: async (id) => {
      const [row] = await db
        .select({ seq: disputes.seq })
        .from(disputes)
        .where(and(withinScope(disputes, scope), eq(disputes.id, id)));
      return row?.seq ?? null;
    },
    select: (where, orderBy, limit) => db.select().from(disputes).where(where).orderBy(orderBy).limit(limit),
  });
}
