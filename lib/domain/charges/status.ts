import { and, eq, inArray, isNotNull, isNull, ne, notInArray, or, type SQL } from "drizzle-orm";

import { allOf } from "../../db/conditions";
import { type ChargeRow, charges } from "../../db/schema";
import type { DbOrTx } from "../../db/types";
import { invalidState } from "../../errors";
import { type ChargeMove, chargeMoves, notRefundableStatuses, whyNotRefundableNow } from "./rules";

export {
  awaitsAchClearing,
  type ChargeMove,
  chargeMoves,
  heldAmount,
  newChargeStatus,
  refundableAmount,
} from "./rules";

// The charge's one state machine (docs/reference.md, payments; the moves in ./rules.ts). A charge is
// written once as AUTHORIZED or FAILED (`newChargeStatus`); every later write of `status` goes
// through a named move: a conditional update from the move's states, so two settlements, or a
// return racing a settlement, move a charge once and the loser learns the current state.

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

/** SQL: the charge is in a state that can be refunded (./rules.ts: refundableAmount says the same in cents). */
export const refundable = allOf(
  notInArray(charges.status, [...notRefundableStatuses]),
  isNull(charges.disputeId),
  or(ne(charges.paymentMethod, "ach"), isNotNull(charges.achClearedAt)),
);

/** 409 `invalid_state` when the charge's state admits no refund. */
export function assertRefundable(
  charge: Pick<ChargeRow, "id" | "status" | "paymentMethod" | "achClearedAt" | "disputeId">,
) {
  const why = whyNotRefundableNow(charge);
  if (why) throw invalidState(why);
}
