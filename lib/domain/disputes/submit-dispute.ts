import { clock } from "../../clock";
import { type DisputeRow } from "../../db/schema";
import { type Db, type DbOrTx } from "../../db/types";
import { env } from "../../env";
import { invalid, invalidState } from "../../errors";
import { enqueueJob } from "../../jobs/job-types";
import { type Scope } from "../scope";
import { filledEvidence, whyNotAnswerable } from "./rules";
import { answerable, disputeEvent, lockDispute, moveDispute } from "./status";

/** Submits a dispute whose row the caller locked: needs_response → under_review, once. */
export async function submitLocked(tx: DbOrTx, current: DisputeRow, now: Date) {
  const why = whyNotAnswerable(current, now);
  if (why) throw invalidState(why);
  if (filledEvidence(current.evidence).length === 0)
    throw invalid("evidence", "Save some evidence (a text or a file) before submitting it", "parameter_missing");
  const submitted = await moveDispute(tx, "submit", answerable(current.id, now), { submittedAt: now });
  if (!submitted) throw invalidState(`Dispute ${current.id} can no longer be submitted`);
  const shown = await disputeEvent(tx, "dispute.updated", submitted);
  // The sandbox's card bank answers within seconds; a real processor reports the decision later.
  if (env.APP_ENV === "sandbox")
    await enqueueJob(
      tx,
      "dispute_decision",
      { dispute_id: submitted.id },
      { runAt: new Date(now.getTime() + 2_000), key: `dispute_decision_${submitted.id}` },
    );
  return shown;
}

/**
 * POST /v1/disputes/{id}/submit: the saved evidence goes to the card's bank, once. Two submits at
 * once: the first moves it, the second waits for the row and gets 409 `invalid_state`.
 */
export async function submitDispute(db: Db, scope: Scope, id: string, now = clock.now()) {
  return db.transaction(async (tx) => submitLocked(tx, await lockDispute(tx, scope, id), now));
}
