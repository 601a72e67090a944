// The authorization a payer gives for a one-time bank debit (ACH, docs/reference.md section 13): what
// is debited, how much, when, and how to revoke it. The pay page shows this text beside its consent
// box; the API makes the same text again from the same facts when the payment arrives and keeps it
// on the charge with its version, the time and the payer's address (a debit without an
// authorization the payer accepted is not a valid debit). A new wording gets a new version.

import { intlLocale } from "../i18n/locales";
import { formatCents } from "../money";

export const ACH_AUTHORIZATION_VERSION = "2026-11-24";

export type AchAuthorizationFacts = {
  /** The name the payer knows the business by. */
  business: string;
  /** The total to debit, in cents. */
  amount: number;
  /** How to reach the business to revoke (its e-mail or phone), when known. */
  contact: string | null;
  /** The day of the debit (YYYY-MM-DD, UTC). */
  date: string;
};

const money = (cents: number, locale: "en" | "es") => formatCents(cents, intlLocale(locale));
const day = (date: string, locale: "en" | "es") =>
  new Intl.DateTimeFormat(intlLocale(locale), { dateStyle: "long", timeZone: "UTC" }).format(
    new Date(`${date}T12:00:00Z`),
  );

/** The authorization's words in the payer's language. */
export function achAuthorizationText(locale: "en" | "es", facts: AchAuthorizationFacts) {
  const amount = money(facts.amount, locale);
  const when = day(facts.date, locale);
  if (locale === "es")
    return (
      `Autorizo a ${facts.business} a debitar ${amount} una sola vez de la cuenta bancaria indicada arriba, ` +
      `el ${when} o después. El débito puede tardar hasta 3 días hábiles en completarse. ` +
      `Puedo revocar esta autorización comunicándome con ${facts.business}` +
      `${facts.contact ? ` (${facts.contact})` : ""} antes de que se realice el débito.`
    );
  return (
    `I authorize ${facts.business} to debit ${amount} once from the bank account entered above, ` +
    `on or after ${when}. The debit can take up to 3 business days to complete. ` +
    `I can revoke this authorization by contacting ${facts.business}` +
    `${facts.contact ? ` (${facts.contact})` : ""} before the debit is made.`
  );
}
