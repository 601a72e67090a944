import { agreementDigest, agreementFor, signatureLine } from "../../agreement/agreement-text";
import type { AccountRow, MerchantRow } from "../../db/schema";
import { type Db } from "../../db/types";
import type { Locale } from "../../i18n/locales";
import { brandOf } from "../accounts/isv-facts";
import { signatureIsCurrent, signedDocument } from "../merchants/signature";
import { getSessionRows, type SessionUse } from "./session";

/**
 * The session's agreement as the merchant reads it: in the language it was signed in (else the
 * reader's), with the signature line only under the very text the signature was given for.
 */
export async function getAgreement(db: Db, use: SessionUse, readerLocale: Locale) {
  const { merchant, isv } = await getSessionRows(db, use);
  return merchantAgreement(merchant, isv, readerLocale);
}

/** The same for a merchant already read (the merchant's home: its signed agreement, as signed). */
export function merchantAgreement(merchant: MerchantRow, isv: AccountRow, readerLocale: Locale) {
  const signature = signatureIsCurrent(merchant, isv) ? merchant.agreement : null;
  const locale = signature?.locale ?? readerLocale;
  // Signed: the very text that was signed (kept with the signature), whatever changed since.
  const kept = signature ? signedDocument(signature) : null;
  const document = kept ?? agreementFor(merchant, isv, locale);
  return {
    merchantId: merchant.id,
    locale,
    branding: brandOf(isv),
    document,
    // Under the text it was given for only (an old signature without its text, on a changed text, shows none).
    signatureLine:
      signature && (kept || agreementDigest(document) === signature.text_sha256)
        ? signatureLine(locale, signature)
        : null,
  };
}
