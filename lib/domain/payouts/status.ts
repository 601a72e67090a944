import { and, eq, inArray, or, type SQL, sql } from "drizzle-orm";

import { clock } from "../../clock";
import { decryptApplication } from "../../crypto/field-encryption";
import { type MerchantPayoutRow, type MerchantRow, type PayoutRow, payouts, settlements } from "../../db/schema";
import { type DbOrTx } from "../../db/types";
import { enqueueJob } from "../../jobs/job-types";
import { settlementsPaidBy } from "../../ledger/reads";
import { type PayoutHeldReason, type SettlementPayoutStatus, settlementPayoutStatuses } from "../../schemas/payouts";
import { serializePayout } from "../../serializers/payout";
import { recordEvent } from "../events/record-event";
import { isMerchantPayout } from "./recipient";
import { type PayoutMove, payoutMoves } from "./rules";

// Payouts (docs/reference.md section 16): each settlement with a positive net makes one, in the
// settlement's transaction; the worker sends it (pending → in_transit, arriving the next business
// day) and records the bank's answer on that day (paid | failed). A failed payout holds the
// merchant's later payouts and asks for a new bank account (requirement `payout_failed`, in the
// home and by e-mail); once that account is verified, the held payouts go and a replacement pays
// what failed. Every status write is a named move (./rules.ts): a conditional update, here.

type MoveColumns = Omit<Partial<typeof payouts.$inferInsert>, "status" | "id">;

/**
 * Every status write of a payout, to either recipient: the move of each payout matching `where`
 * that is in a state the move starts from (one statement), answering the moved rows; a merchant's
 * settlements' `payout_status` follows.
 */
export async function movePayouts(tx: DbOrTx, move: PayoutMove, where: SQL | undefined, set: MoveColumns = {}) {
  const { from, to } = payoutMoves[move];
  const moved = await tx
    .update(payouts)
    .set({ heldReason: null, ...set, status: to, updatedAt: clock.now() })
    .where(and(inArray(payouts.status, [...from]), where))
    .returning();
  await settlementsFollow(tx, moved.filter(isMerchantPayout));
  return moved;
}

/**
 * A settlement's `payout_status` says what its payout (or the replacement of a failed one) is doing:
 * `held` while it waits, `scheduled` once it may go (pending or on its way), then `paid` or `failed`.
 * Its payout is the one that made it, or the one that paid its postings out (a weekly schedule's
 * payout pays the week's settlements).
 */
export async function settlementsFollow(tx: DbOrTx, rows: readonly MerchantPayoutRow[]) {
  const of = (status: PayoutRow["status"]): SettlementPayoutStatus =>
    status === "pending" || status === "in_transit" ? "scheduled" : status;
  for (const status of settlementPayoutStatuses) {
    const moved = rows.filter((r) => of(r.status) === status);
    if (!moved.length) continue;
    const made = moved.flatMap((r) => (r.settlementId ? [r.settlementId] : []));
    const payoutIds = sql.join(
      moved.map((r) => sql`${r.id}`),
      sql`, `,
    );
    await tx
      .update(settlements)
      .set({ payoutStatus: status })
      .where(
        or(
          made.length ? inArray(settlements.id, made) : undefined,
          sql`${settlements.id} in (${settlementsPaidBy(sql`any(array[${payoutIds}])`)})`,
        ),
      );
  }
}

/** Where the money goes: the merchant's bank account as it is now (last four digits, bank name). */
export function bankOf(merchant: MerchantRow) {
  const bank = decryptApplication(merchant.application).bank_account as
    { account_number?: string; bank_name?: string } | undefined;
  const number = typeof bank?.account_number === "string" ? bank.account_number : null;
  return { number, last4: number ? number.slice(-4) : null, name: bank?.bank_name ?? null };
}

export const payoutEvent = (tx: DbOrTx, type: "payout.created" | "payout.paid" | "payout.failed", row: PayoutRow) =>
  recordEvent(tx, { accountId: row.isvAccountId, type, objectId: row.id, data: serializePayout(row) });

/**
 * The worker's next step for a payout, at `runAt` (now: send it; its arrival date: the bank's
 * answer). The job names its step and does nothing when the payout is no longer there (held since,
 * or moved by the sandbox's helper). A payout held then released is sent by a new job: its key
 * carries the release (a keyed job is made once, so the first one's key would make nothing).
 */
export const queueAdvance = (
  tx: DbOrTx,
  row: Pick<PayoutRow, "id">,
  step: "send" | "settle",
  runAt?: Date,
  occasion = "",
) =>
  enqueueJob(tx, "payout_advance", { payout_id: row.id, step }, { key: `payout_${step}_${row.id}${occasion}`, runAt });

/** The merchant's payouts not sent yet wait, for `reason` (held ones take the new reason). */
export async function holdPayouts(tx: DbOrTx, merchant: MerchantRow, reason: PayoutHeldReason) {
  await movePayouts(tx, "hold", eq(payouts.merchantId, merchant.id), { heldReason: reason });
  await tx
    .update(payouts)
    .set({ heldReason: reason, updatedAt: clock.now() })
    .where(and(eq(payouts.merchantId, merchant.id), eq(payouts.status, "held")));
}
