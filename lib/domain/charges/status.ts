import { and, eq, inArray, isNotNull, isNull, lt, ne, notInArray, or, type SQL } from "drizzle-orm";

import { type ChargeRow, charges, refunds } from "../../db/schema";
import type { DbOrTx } from "../../db/types";
import { invalidState } from "../../errors";
import type { ChargeStatus } from "../../schemas/payment-values";

// The charge's one state machine (docs/reference.md, payments). A charge is written once as
// AUTHORIZED or FAILED (`newChargeStatus`); every later write of `status` goes through a named move
// below: a conditional update from the move's states, so two settlements, or a return racing a
// settlement, move a charge once and the loser learns the current state.
//
//   (authorized) --> AUTHORIZED --settle--> SETTLED --returnCharge--> RETURNED
//   (declined)   --> FAILED                 SETTLED <--reverseReturn-- RETURNED
// FAILED is final: nothing was captured, so nothing settles, returns or refunds.

export const chargeMoves = {
  settle: { from: ["AUTHORIZED"], to: "SETTLED" },
  returnCharge: { from: ["SETTLED"], to: "RETURNED" },
  reverseReturn: { from: ["RETURNED"], to: "SETTLED" },
} as const satisfies Record<string, { from: readonly ChargeStatus[]; to: ChargeStatus }>;
export type ChargeMove = keyof typeof chargeMoves;

/** The status a new charge is written with: what the processor's authorization said. */
export const newChargeStatus = (approved: boolean): ChargeStatus => (approved ? "AUTHORIZED" : "FAILED");

type MoveColumns = Omit<Partial<typeof charges.$inferInsert>, "status" | "id">;

/**
 * Every charge matching `where` that is in a state the move starts from, moved (one statement; a
 * charge another transaction moved first is not matched again). Answers the moved rows.
 */
export function moveCharges(
  tx: DbOrTx,
  move: ChargeMove,
  where: SQL | undefined,
  set: MoveColumns = {},
): Promise<ChargeRow[]> {
  const { from, to } = chargeMoves[move];
  return tx
    .update(charges)
    .set({ ...set, status: to })
    .where(and(inArray(charges.status, [...from]), where))
    .returning();
}

/** The move of one charge, or null when it is not in a state the move starts from. */
export async function moveChargeIfAllowed(
  tx: DbOrTx,
  id: string,
  move: ChargeMove,
  set: MoveColumns = {},
): Promise<ChargeRow | null> {
  const [moved] = await moveCharges(tx, move, eq(charges.id, id), set);
  return moved ?? null;
}

/** The move, or 409 `invalid_state` naming the current and the expected states. */
export async function moveCharge(tx: DbOrTx, id: string, move: ChargeMove, set: MoveColumns = {}): Promise<ChargeRow> {
  const moved = await moveChargeIfAllowed(tx, id, move, set);
  if (moved) return moved;
  const { from } = chargeMoves[move];
  const [current] = await tx.select({ status: charges.status }).from(charges).where(eq(charges.id, id));
  throw invalidState(`Cannot ${move}: the charge is ${current?.status ?? "missing"}, expected ${from.join(" or ")}`);
}

// Refunds: nothing of a FAILED charge (nothing was captured) or a RETURNED one (the bank sent the
// money back), and nothing of an ACH charge before it cleared (docs/reference.md section 13): a
// debit refunded and then returned by the customer's bank would pay the customer twice, so an ACH
// refund waits until the return check of its settlement found no return (`ach_cleared_at`). The
// rule in three forms: SQL for the conditional update, a number for pages, a 409.
const notRefundableStatuses = ["FAILED", "RETURNED"] as const satisfies readonly ChargeStatus[];
const whyNotRefundable: Record<(typeof notRefundableStatuses)[number], string> = {
  FAILED: "nothing was captured, so there is nothing to refund",
  RETURNED: "the customer's bank already sent the money back",
};
type RefundFacts = Pick<ChargeRow, "status" | "amountCaptured" | "amountRefunded" | "paymentMethod" | "achClearedAt">;

/** SQL: the charge is in a state that can be refunded. */
export const refundable = and(
  notInArray(charges.status, [...notRefundableStatuses]),
  or(ne(charges.paymentMethod, "ach"), isNotNull(charges.achClearedAt)),
)!;

/** An ACH charge its bank could still return (not yet cleared): not refundable yet. */
export const awaitsAchClearing = (charge: Pick<ChargeRow, "paymentMethod" | "achClearedAt" | "status">) =>
  charge.paymentMethod === "ach" &&
  charge.achClearedAt === null &&
  charge.status !== "RETURNED" &&
  charge.status !== "FAILED";

/** What of a charge can still be refunded, in cents. */
export function refundableAmount(charge: RefundFacts): number {
  if ((notRefundableStatuses as readonly ChargeStatus[]).includes(charge.status)) return 0;
  if (awaitsAchClearing(charge)) return 0;
  return Math.max(0, charge.amountCaptured - charge.amountRefunded);
}

/** 409 `invalid_state` when the charge's state admits no refund. */
export function assertRefundable(charge: Pick<ChargeRow, "id" | "status" | "paymentMethod" | "achClearedAt">) {
  const why = whyNotRefundable[charge.status as keyof typeof whyNotRefundable];
  if (why) throw invalidState(`Charge ${charge.id} is ${charge.status}: ${why}`);
  if (awaitsAchClearing(charge))
    throw invalidState(
      `Charge ${charge.id} is a bank payment (ACH) that has not cleared: its bank can still return it, so it can be refunded once it clears (after its settlement's return check)`,
    );
}

/**
 * What a settlement with `cutoff` takes (docs/reference.md, settlement), one predicate per kind,
 * built once for `settleMerchant` (which moves them) and `merchantsToSettle` (which finds whom to
 * settle): AUTHORIZED charges made before the cutoff; refunds not yet settled; returns not yet
 * taken back; reversals of returns that were taken back, not yet paid back.
 */
export function settleablePredicates(cutoff: Date) {
  return {
    charges: and(eq(charges.status, "AUTHORIZED"), lt(charges.createdAt, cutoff))!,
    refunds: and(isNull(refunds.settlementId), lt(refunds.createdAt, cutoff))!,
    returns: and(eq(charges.status, "RETURNED"), isNull(charges.returnSettlementId), lt(charges.returnedAt, cutoff))!,
    reversals: and(
      isNotNull(charges.returnReversedAt),
      isNotNull(charges.returnSettlementId),
      isNull(charges.reversalSettlementId),
      lt(charges.returnReversedAt, cutoff),
    )!,
  };
}

/** An amount still held of a charge: what was captured less what was refunded (a return takes back this much). */
export const heldAmount = (charge: Pick<ChargeRow, "amountCaptured" | "amountRefunded">) =>
  charge.amountCaptured - charge.amountRefunded;
