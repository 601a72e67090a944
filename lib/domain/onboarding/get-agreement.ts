import { agreementFor, signatureLine } from "../../agreement/agreement-text";
import { type Db } from "../../db/types";
import type { Locale } from "../../i18n/locales";
import { brandOf } from "../accounts/isv-facts";
import { getSessionRows, type SessionUse } from "./session";
import { signatureIsCurrent } from "./sign-agreement";

/**
 * The session's agreement as the merchant reads it: in the language it was signed in (else the
 * reader's), with the signature line only under the very text the signature was given for.
 */
export async function getAgreement(db: Db, use: SessionUse, readerLocale: Locale) {
  const { merchant, isv } = await getSessionRows(db, use);
  const signature = signatureIsCurrent(merchant, isv) ? merchant.agreement : null;
  const locale = signature?.locale ?? readerLocale;
  return {
    merchantId: merchant.id,
    locale,
    branding: brandOf(isv),
    document: agreementFor(merchant, isv, locale),
    signatureLine: signature ? signatureLine(locale, signature) : null,
  };
}
