import { describe, expect, test } from "vitest";

import { dollarWords, modelPricingLines, percentWords, pricingInWords } from "./pricing-words";

describe("pricing in the merchant's words", () => {
  test.each([
    ["2.90", "en", "2.90 %"],
    ["3.5", "en", "3.50 %"],
    ["0.0525", "en", "0.0525 %"],
    ["2.90", "es", "2.90 %"],
  ] as const)("percent %s (%s) → %s", (value, locale, words) => expect(percentWords(value, locale)).toBe(words));

  test.each([
    ["0.30", "en", "$0.30"],
    ["0.0525", "en", "$0.0525"],
    ["25", "en", "$25.00"],
    ["1234.5", "es", "$1,234.50"],
  ] as const)("amount %s (%s) → %s", (value, locale, words) =>
    expect(dollarWords(value, locale).replace(/\u00a0/g, " ")).toBe(words),
  );

  test("flat rate: each class's own fields, else the model's rate_percent and fee_fixed (as the fee engine reads them)", () => {
    expect(
      modelPricingLines(
        "flat_rate",
        {
          rate_percent: "2.75",
          fee_fixed: "0.10",
          vmd_credit_rate_percent: "2.90",
          vmd_credit_fee_fixed: "0.30",
          amex_rate_percent: "3.50",
          amex_fee_fixed: "",
        },
        "en",
      ),
    ).toEqual([
      "Visa, Mastercard, Discover credit: 2.90 % + $0.30 per transaction",
      "Visa, Mastercard, Discover debit: 2.75 % + $0.10 per transaction",
      "American Express: 3.50 % + $0.10 per transaction",
    ]);
  });

  test("two-tier, tiered with the legacy fallback, interchange plus, cash discount, ACH", () => {
    expect(
      modelPricingLines(
        "two_tiered",
        {
          vmd_cp_rate_percent: "2.60",
          vmd_cp_fee_fixed: "0.10",
          vmd_cnp_rate_percent: "3.50",
          vmd_cnp_fee_fixed: "0.15",
          amex_cp_rate_percent: "3.00",
          amex_cp_fee_fixed: "0",
          amex_cnp_rate_percent: "3.50",
          amex_cnp_fee_fixed: "0.00",
        },
        "en",
      ),
    ).toEqual([
      "Visa, Mastercard, Discover, card present: 2.60 % + $0.10 per transaction",
      "Visa, Mastercard, Discover, card not present (online or keyed): 3.50 % + $0.15 per transaction",
      "American Express, card present: 3.00 % per transaction",
      "American Express, card not present (online or keyed): 3.50 % per transaction",
    ]);
    const tiered = modelPricingLines(
      "tiered",
      {
        vmd_qual_credit_rate_percent: "1.69",
        qualified_rate_percent: "1.99",
        qualified_fee_fixed: "0.10",
        non_qualified_rate_percent: "3.99",
      },
      "en",
    );
    expect(tiered).toHaveLength(9);
    expect(tiered[0]).toBe("Visa, Mastercard, Discover credit, qualified: 1.69 % per transaction");
    expect(tiered[1]).toBe("Visa, Mastercard, Discover debit, qualified: 1.99 % + $0.10 per transaction");
    expect(tiered[8]).toBe("American Express, non-qualified: 3.99 % per transaction");
    expect(
      modelPricingLines(
        "pass_through_ic",
        {
          processor_markup_percent: "0.30",
          transaction_fee_fixed: "0.10",
          vmd_credit_discount_percent: "1.80",
          vmd_credit_fee_fixed: "0.10",
        },
        "en",
      ),
    ).toEqual([
      "Visa, Mastercard, Discover credit: interchange at cost, plus 1.80 % + $0.10 per transaction",
      "Visa, Mastercard, Discover debit: interchange at cost, plus 0.00 % per transaction",
      "American Express: interchange at cost, plus 0.00 % per transaction",
      "Processor markup on every card payment: 0.30 % + $0.10 per transaction",
    ]);
    expect(modelPricingLines("cash_discount", { advantage_rate: "3.99" }, "es")).toEqual([
      "Los precios con tarjeta incluyen un cargo por servicio de 3.99 % que cubre la comisión de procesamiento; quien paga en efectivo paga el precio de lista",
    ]);
    expect(
      modelPricingLines(
        "ach",
        {
          txn_fee_percent: "0.50",
          txn_fee_fixed: "0.25",
          return_fee_fixed: "5.00",
          monthly_fee: "10.00",
          daily_batch_fee: "0.10",
          gross_volume_discount_rate: "0",
        },
        "en",
      ),
    ).toEqual([
      "ACH payment: 0.50 % + $0.25 per transaction",
      "Returned payment: $5.00 each",
      "Daily batch fee (each day with ACH payments): $0.10",
      "Monthly fee: $10.00",
    ]);
  });

  test("the models' names in Spanish; no raw field name anywhere", () => {
    const words = pricingInWords(
      { flat_rate: { rate_percent: "2.90", fee_fixed: "0.30" }, ach: { txn_fee_fixed: "0.25" } },
      "es",
    );
    expect(words.map((m) => m.name)).toEqual(["Tarifa fija", "Pagos bancarios (ACH)"]);
    expect(words[0]!.lines[0]).toBe("Crédito Visa, Mastercard, Discover: 2.90 % + $0.30 por transacción");
    expect(JSON.stringify(words)).not.toMatch(/_percent|_fixed|_fee\b/);
  });
});
