import { eq } from "drizzle-orm";

import { decryptApplication, keyedDigest } from "../../crypto/field-encryption";
import { one } from "../../db/one";
import { type MerchantRow, merchants } from "../../db/schema";
import { type DbOrTx } from "../../db/types";
import { planChecks } from "../../verification/checks";
import { queueCheck, verificationUpdated } from "./status";

/**
 * In the submission's transaction (the merchant row locked): the checks the application needs,
 * each new or changed one pending and queued; unchanged results kept. Returns the merchant as written.
 */
export async function startChecks(tx: DbOrTx, merchant: MerchantRow): Promise<MerchantRow> {
  const plan = planChecks(merchant.verification, decryptApplication(merchant.application), keyedDigest, new Date());
  if (!plan.changed) return merchant;
  const updated = one(
    await tx.update(merchants).set({ verification: plan.checks }).where(eq(merchants.id, merchant.id)).returning(),
  );
  for (const c of plan.queued) await queueCheck(tx, merchant.id, c);
  await verificationUpdated(tx, updated);
  return updated;
}
