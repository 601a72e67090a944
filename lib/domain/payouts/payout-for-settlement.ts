import { one } from "../../db/one";
import { type MerchantRow, payouts, type SettlementRow } from "../../db/schema";
import { type DbOrTx } from "../../db/types";
import { createId } from "../../ids";
import { drawableOf } from "../../ledger/payout-draws";
import { takePayoutLines } from "../../ledger/payout-movements";
import { log } from "../../log";
import { payoutProvider } from "../../payouts/provider";
import { merchantPayout } from "./recipient";
import { heldReasonOf } from "./rules";
import { type PayoutSettings, payoutSettingsOf } from "./settings";
import { bankOf, payoutEvent, queueAdvance, settlementsFollow } from "./status";

/**
 * A new payout (the settlement's, or a failed one's replacement): pending and queued, or held. A
 * payout that waits holds nothing in the ledger: its money stays available until it is sent.
 */
export async function insertPayout(
  tx: DbOrTx,
  merchant: MerchantRow,
  input: { settlementId: string; amount: number; replaces?: string | null },
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
  // The settlement said what its first payout did (../settlements/settle-merchant.ts); a replacement's says it again.
  if (input.replaces) await settlementsFollow(tx, [row]);
  if (!held && payoutProvider().sends) await queueAdvance(tx, row, "send");
  return row;
}

/**
 * In the settlement's transaction (the merchant's row locked, the settlement posted): a payout of
 * what the merchant's `available` balance holds beyond the payouts already promised out of it
 * (lib/ledger/payout-draws.ts), the settlement kept as its provenance. That is the settlement's net
 * when positive (the ledger check holds it); nothing when it is not (a negative net is carried into
 * the next settlement instead: ../settlements/settle-merchant.ts).
 */
export async function payoutForSettlement(
  tx: DbOrTx,
  merchant: MerchantRow,
  settlement: SettlementRow,
  settings?: PayoutSettings,
) {
  if (settlement.net <= 0) return null;
  const amount = await drawableOf(tx, merchant.id);
  if (amount !== settlement.net)
    log.error(
      { settlement_id: settlement.id, merchant_id: merchant.id, net: settlement.net, drawable: amount },
      "a settlement's payout would draw other than its net",
    );
  if (amount <= 0) return null;
  return insertPayout(
    tx,
    merchant,
    { settlementId: settlement.id, amount },
    settings ?? (await payoutSettingsOf(tx, merchant.id)),
  );
}
