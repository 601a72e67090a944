import type { Locale } from "../i18n/locales";

// A statement's fee lines are stored in English (the fee engine's descriptions, docs/reference.md section 13);
// a Spanish reader sees them in Spanish. Longer fragments first, so "card not present" is never
// read as "card present" and "non-qualified" never as "qualified".
const spanish: [RegExp, string][] = [
  [
    /^Cash discount, ([\d.]+) % included in the card price$/,
    "Descuento por pago en efectivo, $1 % incluido en el precio con tarjeta",
  ],
  [/Minimum processing fee top-up/, "Complemento hasta la comisión mínima de procesamiento"],
  [/Merchant advance service charge/, "Cargo por servicio de anticipo al comercio"],
  [/ACH monthly fee/, "Cuota mensual ACH"],
  [/ACH daily batch fee/, "Cuota diaria de lote ACH"],
  [/ACH transaction/, "Transacción ACH"],
  [/ACH return reversal fee/, "Comisión por reversión de devolución ACH"],
  [/ACH return fee/, "Comisión por devolución ACH"],
  [/^Dispute fee$/, "Comisión por disputa"],
  [/Processor markup/, "Margen del procesador"],
  [/Visa, Mastercard, Discover credit/, "crédito Visa, Mastercard, Discover"],
  [/Visa, Mastercard, Discover debit/, "débito Visa, Mastercard, Discover"],
  [/card not present/, "tarjeta no presente"],
  [/card present/, "tarjeta presente"],
  [/non-qualified/, "no calificada"],
  [/mid-qualified/, "semicalificada"],
  [/\bqualified/, "calificada"],
  [/^Two-tiered/, "Dos niveles"],
  [/^Tiered/, "Por niveles"],
  [/^Flat rate/, "Tarifa fija"],
  [/^Interchange/, "Intercambio"],
];

/** A fee line's description in the reader's language. */
export function feeLineWords(description: string, locale: Locale): string {
  if (locale === "en") return description;
  return spanish.reduce((text, [pattern, words]) => text.replace(pattern, words), description);
}
