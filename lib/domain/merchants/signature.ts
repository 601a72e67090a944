import { createHash } from "node:crypto";

import {
  agreementDigest,
  type AgreementDocument,
  agreementFor,
  type AgreementIsv,
  type AgreementMerchant,
} from "../../agreement/agreement-text";
import type { AgreementSignature } from "../../db/schema";
import type { OnboardingStatus } from "../../schemas/vocabulary";
import { isOpen } from "./status";

// The merchant's signature of its agreement: a rule that onboarding (the wizard's review and submit),
// verification (the signature check) and the agreement's download all read.

/**
 * Whether the merchant's signature stands. While the application is open, it must cover the
 * agreement as it would be generated now (a change to what the text is made of asks for a new
 * signature). Once submitted (COMPLETED, APPROVED, FAILED) the signed agreement is final: it is kept
 * as signed, and nothing the ISV changes later (its name, its pricing defaults) "unsigns" it.
 */
export function signatureIsCurrent(
  merchant: AgreementMerchant & { agreement: unknown; status: OnboardingStatus },
  isv: AgreementIsv,
): boolean {
  const sig = merchant.agreement as Partial<AgreementSignature> | null;
  if (!sig?.text_sha256 || (sig.locale !== "en" && sig.locale !== "es")) return false;
  if (!isOpen(merchant.status)) return true;
  return agreementDigest(agreementFor(merchant, isv, sig.locale)) === sig.text_sha256;
}

/** The agreement as signed, when the signature kept it (signatures made before it was kept have only the digest). */
export function signedDocument(signature: Partial<AgreementSignature> | null): AgreementDocument | null {
  const text = signature?.document_json;
  if (!text || createHash("sha256").update(text).digest("hex") !== signature.text_sha256) return null;
  return JSON.parse(text) as AgreementDocument;
}
