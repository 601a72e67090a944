import { z } from "zod";

import { applicationRules, type ZodFunctions } from "./application-rules";

// The onboarding information's rules (./application-rules.ts) built with zod, for the API, the
// session, underwriting and the OpenAPI document; the wizard builds the same rules with zod/mini.
export * from "./application-rules";

// zod provides every function of zod/mini's API that the rules use; its schemas are supersets.
const rules = applicationRules(z as unknown as ZodFunctions);

export const {
  email,
  percentString,
  phoneNumber,
  isoDate,
  maskedValue,
  ssn,
  tin,
  routingNumber,
  accountNumber,
  moneyString,
  addressSchema,
  ownerSchema,
  bankAccountSchema,
  mainProductSchema,
  salesPercentageSchema,
  currentSalesSchema,
  contactSchema,
  coreApplicationShape,
} = rules;

// The OpenAPI document's named components (registered on these very schemas, which the others embed).
for (const [schema, id] of [
  [addressSchema, "Address"],
  [ownerSchema, "Owner"],
  [bankAccountSchema, "BankAccount"],
  [mainProductSchema, "MainProduct"],
  [salesPercentageSchema, "SalesPercentage"],
  [currentSalesSchema, "CurrentSales"],
  [contactSchema, "ContactPerson"],
] as const)
  z.globalRegistry.add(schema, { id });
