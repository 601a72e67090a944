import { createTranslator } from "next-intl";
import { describe, expect, test } from "vitest";

import { fieldLabel } from "./field-label";
import en from "./messages/en.json" with { type: "json" };
import es from "./messages/es.json" with { type: "json" };

describe("a field in the form's words", () => {
  const t = createTranslator({ locale: "en", messages: en }) as never;
  const tes = createTranslator({ locale: "es", messages: es }) as never;
  test.each([
    ["merchant.bank_account.routing_number", "Bank account: Routing number"],
    ["merchant.legal_business_address", "Legal business address"],
    ["merchant.owner_two.home_address.zip", "Owner 2: Home address: ZIP code"],
    ["merchant.main_product", "Products"],
    ["merchant.main_product.subcategory", "Subcategory"],
    ["device", "Device"],
    ["merchant.legal_business_address.address", "Legal business address: Street address"],
  ])("%s → %s", (path, words) => expect(fieldLabel(t, path)).toBe(words));
  test("in Spanish", () =>
    expect(fieldLabel(tes, "merchant.bank_account.routing_number")).toBe("Cuenta bancaria: Número de ruta (routing)"));
});
