import { eq } from "drizzle-orm";

import { clock } from "../../clock";
import { decryptApplication } from "../../crypto/field-encryption";
import { merchants } from "../../db/schema";
import { type Db, type DbOrTx } from "../../db/types";
import { env } from "../../env";
import type { JobPayload } from "../../jobs/job-types";
import { decide } from "../../underwriting/rules";
import { combine } from "../../underwriting/with-checks";
import { approveMerchant, declineMerchant, requestInformation, sendToManualReview } from "./transitions";

/**
 * The underwriting job of one submission: decide, then move the merchant. Safe to run again (at
 * least once): a merchant no longer COMPLETED, or already sent to review for this submission, is
 * left alone.
 */
export async function runUnderwriting(db: Db, { merchant_id }: JobPayload<"underwriting">) {
  await db.transaction(async (tx) => {
    const [merchant] = await tx.select().from(merchants).where(eq(merchants.id, merchant_id)).for("update");
    if (!merchant || merchant.status !== "COMPLETED") return;
    // Verification first (docs/reference.md section 14): the last check to finish queues this job again.
    if (merchant.verification.some((c) => c.status === "pending")) return;
    const previous = merchant.underwriting as { outcome?: string; submitted_at?: string } | null;
    if (previous?.outcome === "manual_review" && previous.submitted_at === merchant.submittedAt?.toISOString()) return;
    const decision = combine(
      decide(decryptApplication(merchant.application), { sandbox: env.APP_ENV === "sandbox", today: clock.now() }),
      merchant.verification,
    );
    const by = "underwriting";
    switch (decision.outcome) {
      case "approve":
        return void (await approveMerchant(tx, merchant, { by }));
      case "decline":
        return void (await declineMerchant(tx, merchant, { by, reason: decision.reason }));
      case "request_information":
        return void (await requestInformation(tx, merchant, decision.findings, { by }));
      case "manual_review":
        return void (await sendToManualReview(tx, merchant, decision.reason));
    }
  });
}

/**
 * Every try failed (the rules themselves could not run): the merchant is not left waiting in
 * silence; it goes to manual review, where an operator decides.
 */
export async function giveUpUnderwriting(tx: DbOrTx, { merchant_id }: JobPayload<"underwriting">, error: unknown) {
  const [merchant] = await tx.select().from(merchants).where(eq(merchants.id, merchant_id)).for("update");
  if (!merchant || merchant.status !== "COMPLETED") return;
  const reason = `Automatic underwriting could not run (${error instanceof Error ? error.message : String(error)}); an operator decides`;
  await sendToManualReview(tx, merchant, reason);
}
