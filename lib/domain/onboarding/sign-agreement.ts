import { eq } from "drizzle-orm";
import type { Db } from "../../db/client";
import { merchants } from "../../db/schema";
import { AppError, invalidState } from "../../errors";
import { AGREEMENT_VERSION } from "../../agreement/agreement-text";
import { applicationProblems } from "../merchants/application";
import { findMerchant } from "../merchants/find-merchant";
import { getAccount } from "../accounts/get-account";
import { serializeMerchant } from "../../serializers/merchant";
import { recordEvent } from "../events/record-event";
import type { SessionPrincipal } from "./session";

export type Signature = { name: string; signed_at: string; ip: string; user_agent: string; version: string; locale: string };

const normalise = (s: string) => s.trim().replace(/\s+/g, " ").toLowerCase();

/**
 * Owner one signs the generated agreement by typing their full name. Time, IP address and user
 * agent are recorded. The application must be complete first; a later change to it clears the
 * signature (the agreement was generated from it).
 */
export async function signAgreement(db: Db, principal: SessionPrincipal, input: { name: string; ip: string; userAgent: string; locale: string }) {
  return db.transaction(async (tx) => {
    const merchant = await findMerchant(tx, principal.accountId, principal.merchantId, { forUpdate: true });
    if (merchant.status !== "IN_PROGRESS" && merchant.status !== "NOT_STARTED") throw invalidState(`The application is closed; lead_onboarding_status is ${merchant.status}`);
    const problems = applicationProblems(merchant.application);
    if (problems.length) {
      throw new AppError("application_incomplete", "Complete the application before signing the agreement", { errors: problems });
    }
    const owner = merchant.application.owner_one as { first_name: string; last_name: string; middle_name?: string };
    const expected = [normalise(`${owner.first_name} ${owner.last_name}`), normalise(`${owner.first_name} ${owner.middle_name ?? ""} ${owner.last_name}`)];
    if (!expected.includes(normalise(input.name))) {
      throw new AppError("signature_mismatch", "Type owner one's full name exactly as entered in the application", { param: "name", errors: [{ param: "name", code: "signature_mismatch", message: "Type owner one's full name exactly as entered in the application" }] });
    }
    const signature: Signature = { name: input.name.trim(), signed_at: new Date().toISOString(), ip: input.ip, user_agent: input.userAgent.slice(0, 500), version: AGREEMENT_VERSION, locale: input.locale };
    const [updated] = await tx.update(merchants).set({ agreement: signature, updatedAt: new Date() }).where(eq(merchants.id, merchant.id)).returning();
    const isv = await getAccount(tx, principal.accountId);
    await recordEvent(tx, { accountId: principal.accountId, type: "merchant.updated", objectId: merchant.id, data: serializeMerchant(updated!, isv) });
    return signature;
  });
}
