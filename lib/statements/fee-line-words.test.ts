import { describe, expect, test } from "vitest";

import { feeLineWords } from "./fee-line-words";

describe("fee lines in the reader's words", () => {
  test.each([
    ["Flat rate, Visa, Mastercard, Discover credit", "Tarifa fija, crédito Visa, Mastercard, Discover"],
    ["Two-tiered, American Express, card not present", "Dos niveles, American Express, tarjeta no presente"],
    [
      "Two-tiered, Visa, Mastercard, Discover, card present",
      "Dos niveles, Visa, Mastercard, Discover, tarjeta presente",
    ],
    [
      "Tiered, non-qualified, Visa, Mastercard, Discover debit",
      "Por niveles, no calificada, débito Visa, Mastercard, Discover",
    ],
    ["Tiered, mid-qualified, American Express", "Por niveles, semicalificada, American Express"],
    ["Tiered, qualified, American Express", "Por niveles, calificada, American Express"],
    ["Interchange, Visa, Mastercard, Discover debit", "Intercambio, débito Visa, Mastercard, Discover"],
    ["Processor markup", "Margen del procesador"],
    [
      "Cash discount, 3.99 % included in the card price",
      "Descuento por pago en efectivo, 3.99 % incluido en el precio con tarjeta",
    ],
    ["Minimum processing fee top-up", "Complemento hasta la comisión mínima de procesamiento"],
    ["ACH transaction", "Transacción ACH"],
  ])("%s → %s", (en, es) => {
    expect(feeLineWords(en, "es")).toBe(es);
    expect(feeLineWords(en, "en")).toBe(en);
  });
});
