import { one } from "../../db/one";
import { type MerchantRow, payouts } from "../../db/schema";
import { type DbOrTx } from "../../db/types";
import { createId } from "../../ids";
import { drawableOf, manualPayoutWaits } from "../../ledger/payout-draws";
import { takePayoutLines } from "../../ledger/payout-movements";
import { payoutProvider } from "../../payouts/provider";
import { merchantPayout } from "./recipient";
import { heldReasonOf } from "./rules";
import { isPayoutDay } from "./schedule";
import { type PayoutSettings, payoutSettingsOf } from "./settings";
import { bankOf, payoutEvent, queueAdvance, settlementsFollow } from "./status";

/**
 * A new payout (a schedule's, a failed one's replacement, or one asked for): pending and queued, or
 * held. A payout that waits holds nothing in the ledger: its money stays available until it is sent.
 */
export async function insertPayout(
  tx: DbOrTx,
  merchant: MerchantRow,
  input: {
    settlementId: string | null;
    amount: number;
    replaces?: string | null;
    automatic?: boolean;
    /** An instant payout's fee, markup and rail (docs/reference.md section 20). */
    instant?: {
      fee: number;
      feeMarkup: number;
      rail: "rtp" | "push_to_card";
      card?: { id: string; brand: string; last4: string } | null;
    };
  },
  settings: PayoutSettings,
) {
  const held = heldReasonOf(merchant, settings);
  const bank = bankOf(merchant);
  const row = merchantPayout(
    one(
      await tx
        .insert(payouts)
        .values({
          id: createId("po"),
          isvAccountId: merchant.isvAccountId,
          merchantId: merchant.id,
          settlementId: input.settlementId,
          replaces: input.replaces ?? null,
          automatic: input.automatic ?? true,
          ...(input.instant
            ? {
                method: "instant" as const,
                fee: input.instant.fee,
                feeMarkup: input.instant.feeMarkup,
                rail: input.instant.rail,
                payoutCardId: input.instant.card?.id ?? null,
                cardBrand: input.instant.card?.brand ?? null,
                cardLast4: input.instant.card?.last4 ?? null,
              }
            : {}),
          amount: input.amount,
          status: held ? "held" : "pending",
          heldReason: held,
          bankLast4: bank.last4,
          bankName: bank.name,
        })
        .returning(),
    ),
  );
  // Its lines are named now; its money leaves `available` when it is sent (./advance-payout.ts).
  await takePayoutLines(tx, row);
  await payoutEvent(tx, "payout.created", row);
  // The settlements it pays say what it does (held or scheduled): the one that made it, and those
  // whose postings are its lines (a week's on a weekly schedule), or a failed payout's, paid again.
  await settlementsFollow(tx, [row]);
  if (!held && payoutProvider().sends) await queueAdvance(tx, row, "send");
  return row;
}

/**
 * The merchant's payout schedule, on `day` (docs/reference.md section 20), in the caller's
 * transaction with the merchant's row locked (so two payouts never draw the same cents): on a day
 * its schedule makes payouts, a payout of everything it may draw (its `available` balance less the
 * payouts promised out of it: lib/ledger/payout-draws.ts), when that is at least its minimum and
 * more than nothing, and no manual payout waits to be sent. `settlementId`: the settlement that
 * made it, kept as provenance (the day's settlement; null when the payout run made it). Answers the
 * payout, or null.
 */
export async function scheduledPayout(
  tx: DbOrTx,
  merchant: MerchantRow,
  day: Date,
  settlementId: string | null,
  settings?: PayoutSettings,
) {
  const current = settings ?? (await payoutSettingsOf(tx, merchant.id));
  if (!isPayoutDay(current.schedule, day)) return null;
  const amount = await drawableOf(tx, merchant.id);
  if (amount <= 0 || amount < current.schedule.minimum_amount) return null;
  if (await manualPayoutWaits(tx, merchant.id)) return null;
  return insertPayout(tx, merchant, { settlementId, amount }, current);
}
