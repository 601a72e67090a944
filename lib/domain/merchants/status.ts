import { and, eq, inArray } from "drizzle-orm";

import { clock } from "../../clock";
import type { MerchantRow } from "../../db/schema";
import { merchants } from "../../db/schema";
import { type DbOrTx } from "../../db/types";
import { invalidState } from "../../errors";
import type { OnboardingStatus } from "../../schemas/merchant";

// The merchant's one state machine (docs/reference.md section 4). Every write of
// `lead_onboarding_status` goes through `moveMerchant`: a conditional update from the move's named
// states, so two racing writers cannot both win, and the loser learns the current state.
//
//   NOT_STARTED --startOnboarding--> IN_PROGRESS --submitApplication--> COMPLETED
//   COMPLETED --requestInformation--> IN_PROGRESS
//   COMPLETED --approveMerchant--> APPROVED (final)      COMPLETED --declineMerchant--> FAILED (final)
//   COMPLETED --holdForReview--> COMPLETED (an operator decides)

export const INITIAL_STATUS: OnboardingStatus = "NOT_STARTED";

/** While open, the merchant (and the ISV) may still change the application. */
export const openStatuses: readonly OnboardingStatus[] = ["NOT_STARTED", "IN_PROGRESS"];
/** Underwriting has decided for good. */
export const finalStatuses: readonly OnboardingStatus[] = ["APPROVED", "FAILED"];

export const merchantMoves = {
  startOnboarding: { from: ["NOT_STARTED"], to: "IN_PROGRESS" },
  submitApplication: { from: ["NOT_STARTED", "IN_PROGRESS"], to: "COMPLETED" },
  requestInformation: { from: ["COMPLETED"], to: "IN_PROGRESS" },
  holdForReview: { from: ["COMPLETED"], to: "COMPLETED" },
  approveMerchant: { from: ["COMPLETED"], to: "APPROVED" },
  declineMerchant: { from: ["COMPLETED"], to: "FAILED" },
} as const satisfies Record<string, { from: readonly OnboardingStatus[]; to: OnboardingStatus }>;
export type MerchantMove = keyof typeof merchantMoves;

export const isOpen = (status: OnboardingStatus) => openStatuses.includes(status);
export const isFinal = (status: OnboardingStatus) => finalStatuses.includes(status);

/** 409 `invalid_state` unless the application is still open; `what` says what was refused. */
export function assertOpen(merchant: Pick<MerchantRow, "status">, what = "The application can change") {
  if (!isOpen(merchant.status)) {
    throw invalidState(
      `${what} only while lead_onboarding_status is ${openStatuses.join(" or ")}; it is ${merchant.status}`,
    );
  }
}

type MoveColumns = Omit<Partial<typeof merchants.$inferInsert>, "status" | "id">;

/** The same move, but null (nothing changed) when the merchant is not in a state it starts from. */
export async function moveMerchantIfAllowed(
  tx: DbOrTx,
  merchantId: string,
  move: MerchantMove,
  set: MoveColumns = {},
): Promise<MerchantRow | null> {
  const { from, to } = merchantMoves[move];
  const [moved] = await tx
    .update(merchants)
    .set({ ...set, status: to, updatedAt: clock.now() })
    .where(and(eq(merchants.id, merchantId), inArray(merchants.status, [...from])))
    .returning();
  return moved ?? null;
}

/**
 * Moves the merchant along `move` (with the other columns in `set`) if, and only if, its status is
 * one the move starts from. Otherwise 409 naming the current and the expected states.
 */
export async function moveMerchant(
  tx: DbOrTx,
  merchantId: string,
  move: MerchantMove,
  set: MoveColumns = {},
): Promise<MerchantRow> {
  const moved = await moveMerchantIfAllowed(tx, merchantId, move, set);
  if (moved) return moved;
  const { from } = merchantMoves[move];
  const [current] = await tx.select({ status: merchants.status }).from(merchants).where(eq(merchants.id, merchantId));
  throw invalidState(
    `Cannot ${move}: lead_onboarding_status is ${current?.status ?? "missing"}, expected ${from.join(" or ")}`,
  );
}
