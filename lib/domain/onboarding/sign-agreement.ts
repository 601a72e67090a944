import { AGREEMENT_VERSION, agreementDigest, agreementFor } from "../../agreement/agreement-text";
import { checkSession, type SessionPrincipal } from "../../auth/onboarding-session";
import { clock } from "../../clock";
import type { AgreementSignature } from "../../db/schema";
import { type Db } from "../../db/types";
import { AppError } from "../../errors";
import type { Locale } from "../../i18n/locales";
import { applicationProblems } from "../merchants/application";
import { recordMerchantEvent } from "../merchants/merchant-event";
import { assertOpen } from "../merchants/status";
import { writeMerchant } from "../merchants/write-merchant";

export type Signature = AgreementSignature;

const normalise = (s: string) => s.trim().replace(/\s+/g, " ").toLowerCase();

/**
 * Owner one signs the generated agreement by typing their full name, in a session that is still
 * current. Time, IP address, user agent and the SHA-256 of the exact text signed are recorded; a
 * later change to anything the text was generated from clears the signature, and submit checks
 * the digest again.
 */
export async function signAgreement(
  db: Db,
  session: SessionPrincipal,
  input: { name: string; ip: string; userAgent: string; locale: Locale; host?: string },
) {
  return db.transaction(async (tx) => {
    const { merchant, isv } = await checkSession(tx, session, { forUpdate: true, host: input.host });
    assertOpen(merchant, "The agreement can be signed");
    const problems = applicationProblems(merchant.application);
    if (problems.length) {
      throw new AppError("application_incomplete", "Complete the application before signing the agreement", {
        errors: problems,
      });
    }
    const owner = merchant.application.owner_one as { first_name: string; last_name: string; middle_name?: string };
    const expected = [
      normalise(`${owner.first_name} ${owner.last_name}`),
      normalise(`${owner.first_name} ${owner.middle_name ?? ""} ${owner.last_name}`),
    ];
    if (!expected.includes(normalise(input.name))) {
      const message = "Type owner one's full name exactly as entered in the application";
      throw new AppError("signature_mismatch", message, {
        param: "name",
        errors: [{ param: "name", code: "signature_mismatch", message }],
      });
    }
    const document = agreementFor(merchant, isv, input.locale);
    const signature: Signature = {
      name: input.name.trim(),
      signed_at: clock.now().toISOString(),
      ip: input.ip,
      user_agent: input.userAgent.slice(0, 500),
      version: AGREEMENT_VERSION,
      locale: input.locale,
      text_sha256: agreementDigest(document),
      document_json: JSON.stringify(document),
    };
    const updated = await writeMerchant(tx, merchant.id, { agreement: signature, updatedAt: clock.now() });
    await recordMerchantEvent(tx, "merchant.updated", updated, { isv });
    const { document_json: _kept, ...answer } = signature;
    return answer;
  });
}
