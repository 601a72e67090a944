import { clock } from "../../clock";
import { type MerchantRow } from "../../db/schema";
import { type DbOrTx } from "../../db/types";
import { enqueueJob } from "../../jobs/job-types";
import { type StoredCheck } from "../../verification/checks";
import { verificationProvider } from "../../verification/provider";
import { getAccount } from "../accounts/get-account";
import { recordMerchantEvent } from "../merchants/merchant-event";

// Verification's jobs (docs/reference.md section 14): the checks start with each submission, each
// runs as its own job against the provider (lib/verification/provider.ts), and the last one to
// finish hands the merchant to underwriting, which decides only when no check is pending. A
// document attached to a check that asked for one runs it again. The checks live on the merchant
// row (`verification`), written under its row lock, so the merchant's readers see them as they are.
// One use case a file: start-checks.ts, run-check.ts (the job), attach-document.ts; here what they share.

export const same = (a: Pick<StoredCheck, "type" | "subject">, b: Pick<StoredCheck, "type" | "subject">) =>
  a.type === b.type && a.subject === b.subject;

const jobKey = (merchantId: string, c: StoredCheck) => `vchk_${merchantId}_${c.type}_${c.subject}_${c.version}`;

export async function queueCheck(tx: DbOrTx, merchantId: string, c: StoredCheck) {
  const delay = verificationProvider().delayMs ?? 0;
  await enqueueJob(
    tx,
    "verification_check",
    { merchant_id: merchantId, type: c.type, subject: c.subject, version: c.version },
    { key: jobKey(merchantId, c), runAt: delay > 0 ? new Date(clock.ms() + delay) : undefined },
  );
}

export async function verificationUpdated(tx: DbOrTx, merchant: MerchantRow) {
  const isv = await getAccount(tx, merchant.isvAccountId);
  await recordMerchantEvent(tx, "merchant.verification_updated", merchant, { isv });
}
