import { expect, test } from "vitest";

import { achAuthorizationText } from "./ach-authorization";

const facts = { business: "Café Luna", amount: 12_345, contact: "hola@cafeluna.example", date: "2026-11-24" };

test("says what, how much, when and how to revoke, in English and Spanish", () => {
  expect(achAuthorizationText("en", facts)).toBe(
    "I authorize Café Luna to debit $123.45 once from the bank account entered above, on or after November 24, 2026. The debit can take up to 3 business days to complete. I can revoke this authorization by contacting Café Luna (hola@cafeluna.example) before the debit is made.",
  );
  const es = achAuthorizationText("es", facts);
  expect(es).toContain("Autorizo a Café Luna a debitar");
  expect(es).toContain("123.45");
  expect(es).toContain("24 de noviembre de 2026");
  expect(es).toContain("(hola@cafeluna.example)");
  expect(achAuthorizationText("en", { ...facts, contact: null })).toContain("by contacting Café Luna before the debit");
});
