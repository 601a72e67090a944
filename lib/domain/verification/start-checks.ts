import { clock } from "../../clock";
import { decryptApplication, keyedDigest } from "../../crypto/field-encryption";
import { type MerchantRow } from "../../db/schema";
import { type DbOrTx } from "../../db/types";
import { planChecks } from "../../verification/checks";
import { writeMerchant } from "../merchants/write-merchant";
import { queueCheck, verificationUpdated } from "./status";

/**
 * In the submission's transaction (the merchant row locked): the checks the application needs,
 * each new or changed one pending and queued; unchanged results kept. Returns the merchant as written.
 */
export async function startChecks(tx: DbOrTx, merchant: MerchantRow): Promise<MerchantRow> {
  const plan = planChecks(merchant.verification, decryptApplication(merchant.application), keyedDigest, clock.now());
  if (!plan.changed) return merchant;
  const updated = await writeMerchant(tx, merchant.id, { verification: plan.checks });
  for (const c of plan.queued) await queueCheck(tx, merchant.id, c);
  await verificationUpdated(tx, updated);
  return updated;
}
