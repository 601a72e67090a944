import { decryptApplication } from "../crypto/field-encryption";
import type { MerchantRow } from "../db/schema";
import { type Locale, toLocale } from "../i18n/locales";

/** The name customers know the merchant by: its DBA, else its legal name. */
export const businessName = (merchant: MerchantRow) =>
  String(
    (merchant.application.doing_business_as as string | undefined) ||
      (merchant.application.legal_business_name as string | undefined) ||
      "",
  );

/** How a customer reaches the business (to revoke a bank debit's authorization): its contact's e-mail, else its phone. */
export const merchantContact = (merchant: MerchantRow): string | null => {
  const app = merchant.application as { main_contact_person?: { email?: string }; business_phone?: string };
  return app.main_contact_person?.email || app.business_phone || merchant.phone || null;
};

/** The merchant's language (the one it signed in), for what its customers receive. */
export const merchantLocale = (merchant: MerchantRow): Locale => toLocale(merchant.agreement?.locale);

/** Where the merchant's own e-mails go (a dispute, a refused payout): its contact's address, or null. */
export const contactEmailOf = (merchant: MerchantRow): string | null => {
  const app = decryptApplication(merchant.application) as { main_contact_person?: { email?: string } };
  return app.main_contact_person?.email || null;
};
