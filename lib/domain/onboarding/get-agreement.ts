import { agreementFor, signatureLine } from "../../agreement/agreement-text";
import type { Locale } from "../../i18n/locales";
import type { MerchantDefaults } from "../../schemas/account";
import { getSessionRows, type SessionUse } from "./session";
import { signatureIsCurrent, type Signature } from "./sign-agreement";
import { type Db } from "../../db/types";

/**
 * The session's agreement as the merchant reads it: in the language it was signed in (else the
 * reader's), with the signature line only under the very text the signature was given for.
 */
export async function getAgreement(db: Db, use: SessionUse, readerLocale: Locale) {
  const { merchant, isv } = await getSessionRows(db, use);
  const signature = signatureIsCurrent(merchant, isv) ? (merchant.agreement as Signature) : null;
  const locale = signature?.locale ?? readerLocale;
  return {
    merchantId: merchant.id,
    locale,
    branding: isv.defaults as MerchantDefaults,
    document: agreementFor(merchant, isv, locale),
    signatureLine: signature ? signatureLine(locale, signature) : null,
  };
}
