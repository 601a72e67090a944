import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";

import { createToken } from "../../domain/tokens/create-token";
import { cardInputSchema, tokenSchema } from "../../schemas/tokens";
import { serializeToken } from "../../serializers/token";
import type { AppEnv } from "../context";
import { errorBodySchema } from "../errors";
import { allow } from "../middleware/auth";
import { commonErrors, jsonContent } from "../openapi";

const publishableOnly = allow({ kinds: ["publishable"] });

// POST /v1/tokens: the tokenizer frame exchanges a card for a single-use token
const tokenizeCardBankAccountRoute = createRoute({
  method: "post",
  path: "/v1/tokens",
  tags: ["Payments"],
  summary: "Tokenize a card or a bank account",
  description:
    "Called by the tokenizer frames (`/tokenizer/card`, `/tokenizer/bank_account`), authenticated by the merchant's publishable key as a Bearer token. A `card`: checks the number (Luhn, length per brand), the expiry and the CVC's length (400 `card_invalid` naming `card.number`, `card.exp_month`, `card.exp_year` or `card.cvc`). A `bank_account` (merchants with `ach` in their capability types, else 403 `ach_not_enabled`): the routing number's ABA checksum and the account number's length (400 `bank_account_invalid` naming the field); sandbox account `000111111116` is declined when paid, `000222222227` is returned after settlement, `000333333335` is returned and the return then reversed. The token is single-use, valid 30 minutes and bound to the merchant. Budgets: the API's requests per second per publishable key, and 60 tokens a minute per client address across keys (`TOKENS_PER_ADDRESS_PER_MINUTE`) (429 `rate_limited` with `Retry-After`), so a pay link cannot feed a card-testing run. Card numbers, CVCs and account numbers are never stored or logged.",
  security: [{ "tokenizer-publishable-key": [] }],
  middleware: [publishableOnly] as const,
  request: {
    body: {
      required: true,
      ...jsonContent(cardInputSchema, {
        card: { number: "4242424242424242", exp_month: 12, exp_year: 2030, cvc: "123" },
      }),
    },
  },
  responses: {
    200: {
      description: "The token",
      ...jsonContent(tokenSchema, {
        object: "token",
        id: "tok_9fK2mQ7xLp4RzW1nVb6YtC",
        type: "card",
        card: {
          brand: "visa",
          last4: "4242",
          exp_month: 12,
          exp_year: 2030,
          funding: "credit",
          fingerprint: "Xq3v9LmK2pZ7wR1t",
        },
        expires_at: "2026-11-22T18:30:00.000Z",
      }),
    },
    ...commonErrors,
    403: {
      description: "The merchant cannot take payments (`merchant_not_approved`), or bank payments (`ach_not_enabled`)",
      content: { "application/json": { schema: errorBodySchema } },
    },
  },
});

export function tokenRoutes(app: OpenAPIHono<AppEnv>) {
  app.openAPIRegistry.registerComponent("securitySchemes", "tokenizer-publishable-key", {
    type: "http",
    scheme: "bearer",
    description: "The merchant's `payment.tokenizer_publishable_key` (pk_...): authenticates POST /v1/tokens only",
  });

  app.openapi(tokenizeCardBankAccountRoute, async (c) => {
    const principal = c.get("principal");
    if (principal?.kind !== "publishable") throw new Error("tokens route without a publishable key");
    const row = await createToken(c.get("db"), principal.merchantId, c.req.valid("json"));
    return c.json(serializeToken(row), 200);
  });
}
