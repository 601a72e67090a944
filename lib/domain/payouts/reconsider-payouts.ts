import { and, eq, isNull, ne, sql } from "drizzle-orm";

import { type MerchantRow, merchants, payouts } from "../../db/schema";
import { type Db, type DbOrTx } from "../../db/types";
import { type JobPayload } from "../../jobs/job-types";
import { payoutProvider } from "../../payouts/provider";
import { insertPayout } from "./payout-for-settlement";
import { merchantPayout } from "./recipient";
import { heldReasonOf } from "./rules";
import { payoutSettingsOf } from "./settings";
import { bankOf, holdPayouts, movePayouts, queueAdvance } from "./status";

/**
 * After whatever may hold or free the merchant's payouts (automatic payouts switched, a new bank
 * account entered, its check answered), in that change's transaction (the merchant's row locked):
 * while a reason holds them, the payouts not sent wait for it; once none does, the held payouts
 * go (to the bank account as it is now) and each failed payout not yet replaced is paid again.
 */
export async function reconsiderPayouts(tx: DbOrTx, merchant: MerchantRow) {
  const settings = await payoutSettingsOf(tx, merchant.id);
  const reason = heldReasonOf(merchant, settings);
  if (reason) return holdPayouts(tx, merchant, reason);
  const bank = bankOf(merchant);
  const released = await movePayouts(tx, "release", eq(payouts.merchantId, merchant.id), {
    bankLast4: bank.last4,
    bankName: bank.name,
  });
  if (payoutProvider().sends)
    for (const row of released) await queueAdvance(tx, row, "send", undefined, `_${row.updatedAt.getTime()}`);
  const replacement = sql<string | null>`(select r.id from ${payouts} r where r.replaces = ${payouts.id})`;
  const unpaid = await tx
    .select()
    .from(payouts)
    // An instant payout the rail refused never left: its money is in `available` already, nothing to pay again.
    .where(
      and(
        eq(payouts.merchantId, merchant.id),
        eq(payouts.status, "failed"),
        ne(payouts.failureCode, "instant_refused"),
        isNull(replacement),
      ),
    )
    .orderBy(payouts.seq);
  for (const failed of unpaid.map(merchantPayout))
    await insertPayout(
      tx,
      merchant,
      { settlementId: failed.settlementId, amount: failed.amount, replaces: failed.id },
      settings,
    );
}

/** The job: a merchant's payouts looked at again, under its row lock (a new bank account's cooling-off ended). */
export async function runPayoutReconsider(db: Db, { merchant_id }: JobPayload<"payout_reconsider">) {
  await db.transaction(async (tx) => {
    const [merchant] = await tx.select().from(merchants).where(eq(merchants.id, merchant_id)).for("update");
    if (merchant?.status === "APPROVED") await reconsiderPayouts(tx, merchant);
  });
}
