// The words a customer agrees to when a card or bank account is kept for later payments
// (docs/reference.md section 21): the pay page shows them beside its box (off by default), and the
// method keeps exactly these words, in the customer's language, with the time and the address.

/** The consent's words for a method of `kind`, to `business`, in the customer's language. */
export function saveConsentText(locale: "en" | "es", business: string, kind: "card" | "bank_account" = "card") {
  if (locale === "es")
    return kind === "card"
      ? `Guardar esta tarjeta para pagos futuros a ${business}. ${business} podrá cobrarla por los pagos que yo acuerde, y puedo pedir que la borren en cualquier momento.`
      : `Guardar esta cuenta bancaria para pagos futuros a ${business}. ${business} podrá debitarla por los pagos que yo acuerde, y puedo pedir que la borren en cualquier momento.`;
  return kind === "card"
    ? `Save this card for future payments to ${business}. ${business} may charge it for payments I agree to, and I can ask for it to be removed at any time.`
    : `Save this bank account for future payments to ${business}. ${business} may debit it for payments I agree to, and I can ask for it to be removed at any time.`;
}
