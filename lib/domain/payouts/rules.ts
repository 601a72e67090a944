import { clock } from "../../clock";
import type { PayoutHeldReason, PayoutStatus } from "../../schemas/payouts";

// A payout's one state machine (docs/reference.md section 16): every write of `status` after the
// payout is created goes through a named move, a conditional update from the move's states (see
// lib/domain/payouts/payouts.ts), so that two workers, or a worker and the sandbox's advance helper,
// move a payout once.

export const payoutMoves = {
  /** Handed to the bank: it arrives on `arrival_date`. */
  send: { from: ["pending"], to: "in_transit" },
  /** The bank credited the merchant's account. */
  pay: { from: ["in_transit"], to: "paid" },
  /** The bank refused it (closed account...): the money is the merchant's again, paid by a replacement. */
  fail: { from: ["in_transit"], to: "failed" },
  /** An instant payout the rail refused at sending: it never left (docs/reference.md section 20). */
  refuse: { from: ["pending"], to: "failed" },
  /** Not sent yet, and payouts must now wait (automatic payouts turned off, an earlier payout failed). */
  hold: { from: ["pending"], to: "held" },
  /** Nothing holds it any more. */
  release: { from: ["held"], to: "pending" },
} as const satisfies Record<string, { from: readonly PayoutStatus[]; to: PayoutStatus }>;
export type PayoutMove = keyof typeof payoutMoves;

/** The move the next step of a payout's life takes from `status` (the worker's, and the sandbox's helper). */
export function nextMove(status: PayoutStatus): "send" | "settle" | null {
  if (status === "pending") return "send";
  if (status === "in_transit") return "settle";
  return null;
}

type Requirements = { currently_due: string[]; errors: { field: string; code: string; message: string }[] } | null;

/**
 * The request for a new bank account a refused payout left in the merchant's requirements (code
 * `payout_failed`), or undefined: what holds its payouts, what the home's overview and settings say.
 */
export const payoutFailureOf = (requirements: Requirements) =>
  requirements?.errors.find((e) => e.code === "payout_failed");

/**
 * Why a new payout of this merchant must wait, or null: payouts turned off; someone reported a change
 * as not theirs (frozen until an operator releases them); an earlier payout failed and no new bank
 * account was given since (the requirement `payout_failed` is open); the bank account's check has not
 * verified it (./settings.ts). A bank account entered after approval (`bankAccountHoldUntil` set) must be `verified`
 * (a failed check holds payouts and asks an operator), then wait out its cooling-off days; the
 * account underwriting approved holds payouts only while its check is pending or asks for a
 * document (a failed check that underwriting or an operator approved anyway does not).
 */
export function heldReasonOf(
  merchant: { requirements: Requirements; verification: { type: string; status: string }[] },
  settings: {
    automatic: boolean;
    frozenAt: Date | null;
    bankAccountHoldUntil: Date | null;
    riskPausedAt?: Date | null;
  },
  now: Date = clock.now(),
): PayoutHeldReason | null {
  if (!settings.automatic) return "automatic_payouts_off";
  if (settings.frozenAt) return "payouts_frozen";
  if (settings.riskPausedAt) return "risk_review";
  if (payoutFailureOf(merchant.requirements)) return "payout_failed";
  const bank = merchant.verification.find((c) => c.type === "bank_account");
  const changed = settings.bankAccountHoldUntil;
  if (changed) {
    if (bank?.status !== "verified") return "bank_account_unverified";
    if (now.getTime() < changed.getTime()) return "bank_account_cooling_off";
    return null;
  }
  if (bank && (bank.status === "pending" || bank.status === "requires_document")) return "bank_account_unverified";
  return null;
}
