import { eq } from "drizzle-orm";

import { merchants } from "../../db/schema";
import { type Db } from "../../db/types";
import { AppError, invalid, notFound } from "../../errors";
import { drawableOf } from "../../ledger/payout-draws";
import { formatCents } from "../../money";
import type { PayoutHeldReason } from "../../schemas/payouts";
import { assertCanTakePayments, findScopedMerchant, type Scope } from "../scope";
import { insertPayout } from "./payout-for-settlement";
import { heldReasonOf } from "./rules";
import { payoutSettingsOf } from "./settings";

/** Why a payout cannot be made now, in the words of the API's error. */
const heldWords: Record<PayoutHeldReason, string> = {
  automatic_payouts_off: "payouts are turned off for this merchant (automatic_payouts is false)",
  bank_account_unverified: "the merchant's bank account is being verified",
  payout_failed: "an earlier payout was refused by the bank and a new bank account is needed",
  bank_account_cooling_off: "the merchant's new bank account is in its waiting period",
  payouts_frozen: "payouts are frozen after a change was reported as not the merchant's",
  risk_review: "a risk alert paused this merchant's payouts until it is resolved (GET /v1/risk_alerts)",
};

/**
 * POST /v1/payouts (docs/reference.md section 20): a payout of the merchant's available funds now,
 * whatever its schedule: `amount`, or all it may draw. In one transaction with the merchant's row
 * locked, so two at once never pay out more than is available (the second sees what the first
 * promised). 400 `insufficient_funds` above what is available; 409 `payouts_held` while its payouts
 * wait (the reason in words). The payout is `automatic: false`: it has no lines, and its own
 * transaction is a line of the next automatic payout.
 */
export async function createManualPayout(db: Db, scope: Scope, input: { merchant_id?: string; amount?: number }) {
  const scoped = await findScopedMerchant(db, scope, input.merchant_id);
  return db.transaction(async (tx) => {
    const [merchant] = await tx.select().from(merchants).where(eq(merchants.id, scoped.id)).for("update");
    if (!merchant) throw notFound("merchant", scoped.id, "merchant_id");
    assertCanTakePayments(merchant);
    const settings = await payoutSettingsOf(tx, merchant.id);
    const held = heldReasonOf(merchant, settings);
    if (held) throw new AppError("payouts_held", `No payout can be made now: ${heldWords[held]} (${held})`);
    const available = await drawableOf(tx, merchant.id);
    const amount = input.amount ?? available;
    if (available <= 0 || amount > available)
      throw invalid(
        input.amount === undefined ? "merchant_id" : "amount",
        `Available to pay out: ${formatCents(Math.max(0, available), "en")}${input.amount === undefined ? "" : `; asked for ${formatCents(amount, "en")}`}`,
        "insufficient_funds",
      );
    return insertPayout(tx, merchant, { settlementId: null, amount, automatic: false }, settings);
  });
}
