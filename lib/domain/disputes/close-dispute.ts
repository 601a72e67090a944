import { eq, lte } from "drizzle-orm";

import { clock } from "../../clock";
import { allOf } from "../../db/conditions";
import { disputes } from "../../db/schema";
import { type Db } from "../../db/types";
import { type JobPayload } from "../../jobs/job-types";
import { postDisputeWon } from "../../ledger/payment-movements";
import { sandboxDecision } from "./rules";
import { disputeEvent, moveDispute } from "./status";

/** The `dispute_deadline` job: unanswered at `evidence_due_by`, the dispute is lost (`dispute.closed`). */
export async function expireDispute(db: Db, { dispute_id }: JobPayload<"dispute_deadline">, now = clock.now()) {
  await db.transaction(async (tx) => {
    const lost = await moveDispute(tx, "expire", allOf(eq(disputes.id, dispute_id), lte(disputes.evidenceDueBy, now)));
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
    if (!closed) return;
    if (closed.status === "won") await postDisputeWon(tx, closed);
    await disputeEvent(tx, "dispute.closed", closed);
  });
}
