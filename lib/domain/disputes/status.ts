import { and, eq, getTableColumns, gt, inArray, type SQL } from "drizzle-orm";

import { clock } from "../../clock";
import { allOf } from "../../db/conditions";
import { type DisputeRow, disputes } from "../../db/schema";
import { type DbOrTx } from "../../db/types";
import { invalidState, notFound } from "../../errors";
import { settlementThatTook } from "../../ledger/reads";
import { must } from "../../must";
import { type DisputeView, serializeDisputeForIsv } from "../../serializers/dispute";
import { recordEvent } from "../events/record-event";
import { type Scope, withinScope } from "../scope";
import { type DisputeMove, disputeMoves } from "./rules";

// Disputes (docs/reference.md section 16). The card processor reports them (the sandbox: its
// disputed card, when its charge settles); the merchant answers with evidence, saved in parts and
// submitted once, or accepts; the deadline loses an unanswered one; the card's bank decides on the
// evidence. Every write of `status` is a named move (./rules.ts): a conditional update, here. Settlement
// takes a dispute's postings (its amount and fee, a won one's amount back) like any other.

type MoveColumns = Omit<Partial<typeof disputes.$inferInsert>, "status" | "id">;

/** Every write of a dispute's `status`: the move, when the dispute matching `where` is in a state it starts from (else null). */
export async function moveDispute(tx: DbOrTx, move: DisputeMove, where: SQL, set: MoveColumns = {}) {
  const { from, to } = disputeMoves[move];
  const closing = to === "won" || to === "lost";
  const now = clock.now();
  const [row] = await tx
    .update(disputes)
    .set({ ...set, status: to, updatedAt: now, ...(closing ? { closedAt: now } : {}) })
    .where(and(inArray(disputes.status, [...from]), where))
    .returning();
  return row ?? null;
}

/** The move of one dispute, or 409 `invalid_state` naming its state and the states the move starts from. */
export async function moveDisputeOrConflict(tx: DbOrTx, id: string, move: DisputeMove, set: MoveColumns = {}) {
  const moved = await moveDispute(tx, move, eq(disputes.id, id), set);
  if (moved) return moved;
  const [current] = await tx.select({ status: disputes.status }).from(disputes).where(eq(disputes.id, id));
  throw invalidState(
    `Cannot ${move}: the dispute is ${current?.status ?? "missing"}, expected ${disputeMoves[move].from.join(" or ")}`,
  );
}

/**
 * A dispute as it is shown: its row, and the settlements that took its amount and fee and gave a won
 * one's amount back, as the ledger says (the settlement takes postings, not disputes).
 */
export const disputeColumns = {
  ...getTableColumns(disputes),
  settlementId: settlementThatTook("dispute", disputes),
  wonSettlementId: settlementThatTook("dispute_won", disputes),
};

/** One dispute as it is shown, read again (after a change, in its transaction). */
export async function disputeView(tx: DbOrTx, id: string): Promise<DisputeView> {
  const [row] = await tx.select(disputeColumns).from(disputes).where(eq(disputes.id, id));
  return must(row, `the dispute ${id}`);
}

/** The dispute's event, as it is shown now; answers that view (the caller's answer too: not read twice). */
export async function disputeEvent(
  tx: DbOrTx,
  type: "dispute.created" | "dispute.updated" | "dispute.closed",
  row: DisputeRow,
): Promise<DisputeView> {
  const view = await disputeView(tx, row.id);
  await recordEvent(tx, { accountId: row.isvAccountId, type, objectId: row.id, data: serializeDisputeForIsv(view) });
  return view;
}

/** The dispute's row locked for the change, within scope (404 otherwise). */
export async function lockDispute(tx: DbOrTx, scope: Scope, id: string) {
  const [row] = await tx
    .select()
    .from(disputes)
    .where(and(eq(disputes.id, id), withinScope(disputes, scope)))
    .for("update");
  if (!row) throw notFound("dispute", id);
  return row;
}

/** Still answerable at `now`: the dispute waits for evidence and its deadline has not passed (the SQL guard of every change). */
export const answerable = (id: string, now: Date) =>
  allOf(eq(disputes.id, id), eq(disputes.status, "needs_response"), gt(disputes.evidenceDueBy, now));
