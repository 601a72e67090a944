import path from "node:path";

import { defineConfig } from "vitest/config";

// The pure modules' unit tests (the money rules' included), for mutation testing (npm run test:mutation): no database, no server.
export default defineConfig({
  resolve: { alias: { "@": path.resolve(import.meta.dirname) } },
  test: {
    include: [
      "lib/underwriting/**/*.test.ts",
      "lib/onboarding/**/*.test.ts",
      "lib/money.test.ts",
      "lib/schemas/**/*.test.ts",
      "lib/domain/charges/rules.test.ts",
      "lib/domain/payments/rules.test.ts",
      "lib/ledger/settlement-figures.test.ts",
      "lib/domain/fees/compute-cost.test.ts",
      "lib/domain/payouts/rules.test.ts",
      "lib/payouts/business-days.test.ts",
      "lib/domain/disputes/rules.test.ts",
      "lib/domain/embed/allows-origin.test.ts",
      "lib/verification/**/*.test.ts",
      "lib/domain/statements/figures.test.ts",
      "lib/domain/fees/compute-fee.test.ts",
      "lib/domain/fees/merchant-pricing.test.ts",
    ],
    environment: "node",
    pool: "threads",
  },
});
