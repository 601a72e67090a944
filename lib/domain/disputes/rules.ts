import {
  type DisputeReason,
  type DisputeStatus,
  emptyEvidence,
  type Evidence,
  evidenceFileFields,
  evidenceTextFields,
  type SaveEvidence,
} from "../../schemas/disputes";

// A dispute's rules without a database (docs/reference.md section 16): its moves, what its evidence
// is after a save, when it may still be answered, and what a dispute takes. ./disputes.ts applies
// the moves as conditional updates and 409s; the unit tests beside this file hold them.
//
//   (opened) --> needs_response --submit--> under_review --win--> won
//                     |  --accept / expire--> lost         \--lose--> lost

export const disputeMoves = {
  /** The merchant sent its evidence: the card's bank decides. */
  submit: { from: ["needs_response"], to: "under_review" },
  /** The merchant gives the money up: nothing more is asked. */
  accept: { from: ["needs_response"], to: "lost" },
  /** The deadline passed without evidence. */
  expire: { from: ["needs_response"], to: "lost" },
  /** The bank decided for the merchant: the amount comes back (not the fee). */
  win: { from: ["under_review"], to: "won" },
  /** The bank decided for the customer. */
  lose: { from: ["under_review"], to: "lost" },
} as const satisfies Record<string, { from: readonly DisputeStatus[]; to: DisputeStatus }>;
export type DisputeMove = keyof typeof disputeMoves;

/** How long the merchant has to answer (the networks give about that, less the banks' own time). */
export const EVIDENCE_WINDOW_MS = 7 * 24 * 60 * 60 * 1000;

/**
 * The evidence after a save: the fields given replace what was saved (a text is kept as typed; ""
 * or null clears a field); the others stay. Pure: the caller writes it.
 */
export function mergeEvidence(saved: Partial<Evidence>, given: NonNullable<SaveEvidence["evidence"]>): Evidence {
  const out = { ...emptyEvidence(), ...saved };
  for (const field of [...evidenceTextFields, ...evidenceFileFields]) {
    const value = given[field];
    if (value === undefined) continue;
    out[field] = value === null || value.trim() === "" ? null : value;
  }
  return out;
}

/** The fields of the evidence that hold something (a submit with none is refused). */
export const filledEvidence = (evidence: Partial<Evidence>) =>
  [...evidenceTextFields, ...evidenceFileFields].filter((f) => evidence[f] != null && evidence[f] !== "");

/** Why the dispute can no longer be answered at `now` (the 409's message), or null when it can. */
export function whyNotAnswerable(
  dispute: { id: string; status: DisputeStatus; evidenceDueBy: Date },
  now: Date,
): string | null {
  if (dispute.status !== "needs_response")
    return `Dispute ${dispute.id} is ${dispute.status}: its evidence can no longer change`;
  if (now.getTime() >= dispute.evidenceDueBy.getTime())
    return `The evidence of dispute ${dispute.id} was due by ${dispute.evidenceDueBy.toISOString()}: it can no longer be answered`;
  return null;
}

/**
 * What a dispute takes from the merchant: what the customer still paid for the charge (its capture
 * less its refunds: a refund made before the dispute already went back to the customer). Zero
 * (nothing to dispute) when the charge was refunded in full.
 */
export const disputedAmount = (charge: { amountCaptured: number; amountRefunded: number }) =>
  Math.max(0, charge.amountCaptured - charge.amountRefunded);

/**
 * The sandbox's card bank (docs/reference.md section 16): evidence whose `uncategorized_text` is
 * `winning_evidence` wins, `losing_evidence` loses; any other evidence stays under review (a real
 * bank takes weeks).
 */
export function sandboxDecision(evidence: Partial<Evidence>): "win" | "lose" | null {
  const text = evidence.uncategorized_text?.trim();
  if (text === "winning_evidence") return "win";
  if (text === "losing_evidence") return "lose";
  return null;
}

/** Whole days left to answer at `now`, rounded up (the home's "Respond within N days"); 0 once due. */
export function daysToRespond(evidenceDueBy: Date, now: Date): number {
  const left = evidenceDueBy.getTime() - now.getTime();
  return left <= 0 ? 0 : Math.ceil(left / (24 * 60 * 60 * 1000));
}

/** Lost because the deadline passed with nothing submitted (not accepted, not decided by the bank). */
export const lostUnanswered = (dispute: {
  status: DisputeStatus;
  submittedAt: Date | null;
  closedAt: Date | null;
  evidenceDueBy: Date;
}) =>
  dispute.status === "lost" &&
  dispute.submittedAt === null &&
  dispute.closedAt !== null &&
  dispute.closedAt.getTime() >= dispute.evidenceDueBy.getTime();

export { type DisputeReason, emptyEvidence };
