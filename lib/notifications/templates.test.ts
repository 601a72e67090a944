import { describe, expect, test } from "vitest";

import { invoiceEmail, invoiceSms, receiptEmail } from "./payment-templates";
import { informationRequestedForIsv, informationRequestedForMerchant } from "./templates";

// The e-mails and texts read their words from the message files (emails.*): every word in place,
// in both languages, with the values where the messages put them.

const brand = { display_name: "Acme POS", primary_color: "#0e7490" };
const findings = [{ field: "merchant.tin", code: "tin_invalid", message: "The TIN could not be verified" }];

describe("customer messages", () => {
  test.each([
    [
      "en",
      "Invoice from Café Luna",
      "Café Luna sent you an invoice for $13.45.",
      "For: October catering\n2 × Flat white: $9.00\n1 × Croissant: $2.50\nSubtotal: $11.50\nTax: $1.02\nTip: $0.93\nTotal: $13.45",
      "View and pay: https://x.test/pay/pr_1",
    ],
    [
      "es",
      "Factura de Café Luna",
      "Café Luna le ha enviado una factura de $13.45.",
      "Concepto: October catering\n2 × Flat white: $9.00\n1 × Croissant: $2.50\nSubtotal: $11.50\nImpuesto: $1.02\nPropina: $0.93\nTotal: $13.45",
      "Ver y pagar: https://x.test/pay/pr_1",
    ],
  ] as const)(
    "the invoice in %s: what it is for, its items, subtotal, tax, tip and total",
    (locale, subject, intro, lines, action) => {
      const mail = invoiceEmail({
        brand,
        locale,
        business: "Café Luna",
        subtotal: 1150,
        tax: 102,
        tip: 93,
        total: 1345,
        items: [
          { name: "Flat white", quantity: 2, unit_price: 450 },
          { name: "Croissant", quantity: 1, unit_price: 250 },
        ],
        description: "October catering",
        payUrl: "https://x.test/pay/pr_1",
      });
      expect(mail.subject).toBe(subject);
      expect(mail.text).toBe(`${intro}\n\n${lines}\n\n${action}\n`);
      expect(mail.html).toContain(intro);
      expect(mail.html).toContain("$1.02");
    },
  );

  test("an invoice without tax or items: only its total", () => {
    const mail = invoiceEmail({
      brand,
      locale: "en",
      business: "Café Luna",
      subtotal: 1245,
      tax: 0,
      tip: 0,
      total: 1245,
      items: null,
      payUrl: "https://x.test/pay/pr_1",
    });
    expect(mail.text).toBe(
      "Café Luna sent you an invoice for $12.45.\n\nTotal: $12.45\n\nView and pay: https://x.test/pay/pr_1\n",
    );
  });

  test.each([
    ["en", "Café Luna: your invoice for $12.45 is ready. Pay securely at https://x.test/pay/pr_1"],
    ["es", "Café Luna: su factura de $12.45 está lista. Pague de forma segura en https://x.test/pay/pr_1"],
  ] as const)("the invoice text in %s", (locale, text) => {
    expect(invoiceSms({ locale, business: "Café Luna", total: 1245, payUrl: "https://x.test/pay/pr_1" })).toBe(text);
  });

  test.each([
    [
      "en",
      "Your receipt from Café Luna",
      "You paid $12.45 to Café Luna. Thank you.",
      "Receipt number",
      "Payment processed for Acme POS.",
    ],
    [
      "es",
      "Su recibo de Café Luna",
      "Ha pagado $12.45 a Café Luna. Gracias.",
      "Número de recibo",
      "Pago procesado para Acme POS.",
    ],
  ] as const)("the receipt in %s", (locale, subject, intro, numberLabel, footer) => {
    const mail = receiptEmail({
      brand,
      locale,
      business: "Café Luna",
      total: 1245,
      brandName: "Visa",
      last4: "4242",
      paidAt: new Date("2026-11-22T18:02:00Z"),
      receiptNumber: "20261122-8NW3KQ5Z",
      amounts: { subtotal: 1050, tax: 95, tip: 100, items: [{ name: "Flat white", quantity: 2, unit_price: 525 }] },
      contact: {
        address: "125 Market St, San Francisco, CA 94103",
        phone: "(415) 555-0124",
        email: "hola@cafeluna.test",
      },
    });
    expect(mail.subject).toBe(subject);
    // What was paid for, line by line, and how to reach the business.
    expect(mail.text).toContain("2 × Flat white: $10.50");
    expect(mail.text).toContain(`${locale === "en" ? "Tax" : "Impuesto"}: $0.95`);
    expect(mail.text).toContain("125 Market St, San Francisco, CA 94103");
    expect(mail.text).toContain("(415) 555-0124");
    expect(mail.html).toContain("hola@cafeluna.test");
    expect(mail.text.startsWith(intro)).toBe(true);
    expect(mail.text).toContain(`${numberLabel}: 20261122-8NW3KQ5Z`);
    expect(mail.html).toContain(footer);
    // In the merchant's name at its top: the customer paid Café Luna (the ISV's brand is the footer's).
    expect(mail.html).toMatch(/font-weight:600">Café Luna<\/div>/);
    // And From Café Luna (the address is the deployment's).
    expect(mail.senderName).toBe("Café Luna");
  });

  test.each([
    [
      "en",
      "Your bank payment of $12.45 to Café Luna is processing: it takes up to 3 business days to complete. Thank you.",
    ],
    [
      "es",
      "Su pago bancario de $12.45 a Café Luna está en proceso: tarda hasta 3 días hábiles en completarse. Gracias.",
    ],
  ] as const)("a bank payment's receipt in %s says it is processing, not paid", (locale, intro) => {
    const mail = receiptEmail({
      brand,
      locale,
      business: "Café Luna",
      total: 1245,
      brandName: "ach",
      last4: "6789",
      paidAt: new Date("2026-11-22T18:02:00Z"),
      receiptNumber: "20261122-8NW3KQ5Z",
      bank: true,
      amounts: { subtotal: 1245, tax: 0, tip: 0, items: null },
      contact: { address: null, phone: null, email: null },
    });
    expect(mail.text.startsWith(intro)).toBe(true);
    expect(mail.html).toContain(intro.split(":")[0]);
    // A bank account, said as one: never "Card: ach •••• 6789".
    expect(mail.text).toContain(`${locale === "en" ? "Bank account" : "Cuenta bancaria"}: •••• 6789`);
    expect(mail.text).not.toMatch(/ach|Card|Tarjeta/);
  });

  test("a card receipt names the network as printed on the card", () => {
    const mail = receiptEmail({
      brand,
      locale: "en",
      business: "Café Luna",
      total: 1245,
      brandName: "mastercard",
      last4: "4444",
      paidAt: new Date("2026-11-22T18:02:00Z"),
      receiptNumber: "20261122-8NW3KQ5Z",
      amounts: { subtotal: 1245, tax: 0, tip: 0, items: null },
      contact: { address: null, phone: null, email: null },
    });
    expect(mail.text).toContain("Card: Mastercard •••• 4444");
    // Nothing said of what is not known.
    expect(mail.text).not.toMatch(/Address|Phone|E-mail/);
  });
});

describe("information requested", () => {
  test.each([
    [
      "en",
      "Acme POS: we need a few more details for your application",
      "Update your application: https://x.test/portal",
      "- The tax ID must be 9 digits.",
    ],
    [
      "es",
      "Acme POS: necesitamos algunos datos más para su solicitud",
      "Actualizar su solicitud: https://x.test/portal",
      "- La identificación fiscal debe tener 9 dígitos.",
    ],
  ] as const)("to the merchant in %s, each request in the merchant's language", (locale, subject, action, request) => {
    const mail = informationRequestedForMerchant({ brand, locale, findings, portalUrl: "https://x.test/portal" });
    expect(mail.subject).toBe(subject);
    // The portal's own words for the request (underwriting's English only where the pages have none).
    expect(mail.text).toContain(request);
    expect(mail.html).toContain(request.slice(2));
    expect(mail.text).toContain(action);
  });

  test("a request the pages have no words for keeps underwriting's message; one that names an owner names them", () => {
    const mail = informationRequestedForMerchant({
      brand,
      locale: "es",
      findings: [
        { field: "merchant.other", code: "no_such_code", message: "Something else" },
        { field: "merchant.owner_two.id_document", code: "identity_not_verified", message: "x" },
      ],
      portalUrl: "https://x.test/portal",
      names: () => ({ name: "Ana Ruiz", owner: "Mei Chen", business: "Café Luna" }),
    });
    expect(mail.text).toContain("- Something else");
    expect(mail.text).toContain("Ana Ruiz");
  });

  test.each([
    [
      "en",
      "Information requested from Café Luna",
      "Underwriting needs more information from Café Luna (mer_1) before it can be approved:",
    ],
    [
      "es",
      "Información solicitada a Café Luna",
      "La evaluación necesita más información de Café Luna (mer_1) antes de poder aprobarlo:",
    ],
  ] as const)("to the ISV in %s", (locale, subject, intro) => {
    const mail = informationRequestedForIsv({
      brand,
      locale,
      findings,
      merchantName: "Café Luna",
      merchantId: "mer_1",
    });
    expect(mail.subject).toBe(subject);
    expect(mail.text.split("\n")[0]).toBe(intro);
    expect(mail.text).toContain("- merchant.tin: The TIN could not be verified");
  });
});
