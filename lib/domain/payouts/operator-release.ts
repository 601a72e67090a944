import { eq } from "drizzle-orm";

import { clock } from "../../clock";
import { merchants } from "../../db/schema";
import { type Db } from "../../db/types";
import { AppError, notFound } from "../../errors";
import { recordAudit } from "../audit/record-audit";
import { writeMerchant } from "../merchants/write-merchant";
import { reconsiderPayouts } from "./reconsider-payouts";
import { payoutSettingsOf, setPayoutSettings } from "./settings";

/**
 * The operator's answers to what holds an approved merchant's payouts for a person to decide
 * (docs/reference.md section 16): `approveBank` accepts a bank account entered after approval whose
 * check failed (it is then treated as verified, its cooling-off still applies); `unfreeze` lifts the
 * freeze a "this wasn't me" put on the payouts. The payouts are then looked at again, in the same
 * transaction; each answer is audited.
 */
export async function releaseMerchantPayouts(
  db: Db,
  merchantId: string,
  answer: { approveBank?: boolean; unfreeze?: boolean },
) {
  return db.transaction(async (tx) => {
    const [merchant] = await tx.select().from(merchants).where(eq(merchants.id, merchantId)).for("update");
    if (!merchant) throw notFound("merchant", merchantId);
    if (merchant.status !== "APPROVED")
      throw new AppError("merchant_not_approved", `${merchant.id} is ${merchant.status}: it has no payouts to release`);
    const set: Partial<typeof merchants.$inferInsert> = { updatedAt: clock.now() };
    const owner = { id: merchant.id, recipient: "merchant" as const };
    const settings = await payoutSettingsOf(tx, merchant.id);
    if (answer.approveBank) {
      const bank = merchant.verification.find((c) => c.type === "bank_account");
      if (!settings.bankAccountHoldUntil || !bank || bank.status === "verified" || bank.status === "pending")
        throw new AppError(
          "invalid_state",
          `Nothing to approve: ${merchant.id}'s bank account check is ${bank?.status ?? "missing"}${settings.bankAccountHoldUntil ? "" : " and it was not changed after approval"}`,
        );
      set.verification = merchant.verification.map((c) =>
        c === bank
          ? {
              ...c,
              status: "verified" as const,
              code: "operator_verified",
              message: "An operator verified this bank account.",
              updated_at: clock.now().toISOString(),
            }
          : c,
      );
      await recordAudit(tx, {
        accountId: merchant.isvAccountId,
        action: "merchant.bank_account_approved",
        resourceId: merchant.id,
      });
    }
    if (answer.unfreeze) {
      if (!settings.frozenAt) throw new AppError("invalid_state", `${merchant.id}'s payouts are not frozen`);
      await setPayoutSettings(tx, owner, { frozenAt: null });
      // Every "this wasn't me" link issued so far ends with the release (none freezes again).
      set.changeReportsValidAfter = clock.now();
      await recordAudit(tx, {
        accountId: merchant.isvAccountId,
        action: "merchant.payouts_unfrozen",
        resourceId: merchant.id,
      });
    }
    const updated = await writeMerchant(tx, merchant.id, set);
    await reconsiderPayouts(tx, updated);
    return updated;
  });
}
