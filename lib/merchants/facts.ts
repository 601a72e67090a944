import { parsePhoneNumberFromString } from "libphonenumber-js";

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

type Address = { address?: string; city?: string; state?: string; zip?: string };

/**
 * How a customer reaches the business, as its receipts say it: its address (the DBA's, else the
 * legal one) on one line, its phone (the business's, else the legal one) as dialled in its country,
 * and its contact's e-mail. Each null when the application has none.
 */
export function receiptContact(merchant: MerchantRow): {
  address: string | null;
  phone: string | null;
  email: string | null;
} {
  const app = merchant.application as {
    dba_address?: Address | null;
    legal_business_address?: Address | null;
    business_phone?: string | null;
    legal_phone?: string | null;
    main_contact_person?: { email?: string };
  };
  const where = app.dba_address?.address ? app.dba_address : app.legal_business_address;
  const address = where?.address
    ? [where.address, where.city, [where.state, where.zip].filter(Boolean).join(" ")].filter(Boolean).join(", ")
    : null;
  const dialled = app.business_phone || app.legal_phone || null;
  const parsed = dialled ? parsePhoneNumberFromString(dialled, "US") : undefined;
  const phone = parsed ? (parsed.country === "US" ? parsed.formatNational() : parsed.formatInternational()) : dialled;
  return { address, phone, email: app.main_contact_person?.email || null };
}
