import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import { z } from "zod";

import { deletePayoutCard, getPayoutCard, setPayoutCard } from "../../domain/payouts/payout-card";
import { AppError } from "../../errors";
import { payoutCardSchema, setPayoutCardSchema } from "../../schemas/payout-card";
import { serializePayoutCard } from "../../serializers/payout-card";
import type { AppEnv } from "../context";
import { withPaymentScope } from "../middleware/payment-scope";
import { commonErrors, forbidden403, jsonContent, pathId, security } from "../openapi";

// A merchant's debit card for instant payouts by push to card (docs/reference.md section 20).

const exampleCard = {
  object: "payout_card" as const,
  id: "pcard_7Hq2LmP9sK4tWz1xNb3VcR",
  merchant_id: "mer_4kZ2qV9sT1pLmN8xRw3YbC",
  brand: "visa",
  last4: "5556",
  exp_month: 12,
  exp_year: 2030,
  funding: "debit" as const,
  usable_from: "2026-11-25",
  status: "active" as const,
  created_at: 1_763_900_000_000,
};

const merchantParam = z.object({ merchant_id: pathId("merchant_id", exampleCard.merchant_id) });

const setPayoutCardRoute = createRoute({
  method: "post",
  path: "/v1/merchants/{merchant_id}/payout_card",
  tags: ["Payouts"],
  summary: "Add the merchant's debit card for instant payouts",
  description:
    "A card token of the merchant's tokenizer frame (`/tokenizer/card` with the merchant's publishable key, as the merchant's home does) becomes the debit card its instant payouts may go to (`rail: push_to_card`), replacing any card before. Only a debit card: 400 `payout_card_refused` says in words why a credit or prepaid card cannot receive payouts (sandbox: 4000056655665556 and 5200828282828210 are debit cards, 5105105105105100 is prepaid, and a push to the debit card 4000000000006660 is refused at sending). The merchant's contact and owner one are e-mailed with a \"this wasn't me\" link, and instant payouts reach the card from `usable_from` (`settings.new_bank_account_hold_days` business days later). 400 `token_invalid` for a token used, expired or another merchant's; 403 `payouts_frozen` while payouts are frozen. The ISV's key or dashboard only (a merchant adds its card in its home, after a fresh sign-in).",
  security: security.isv,
  middleware: [withPaymentScope] as const,
  request: {
    params: merchantParam,
    body: { required: true, ...jsonContent(setPayoutCardSchema, { token: "tok_9fK2mQ7xLp4RzW1nVb6YtC" }) },
  },
  responses: {
    200: { description: "The card", ...jsonContent(payoutCardSchema, exampleCard) },
    403: forbidden403,
    ...commonErrors,
  },
});

const getPayoutCardRoute = createRoute({
  method: "get",
  path: "/v1/merchants/{merchant_id}/payout_card",
  tags: ["Payouts"],
  summary: "Get the merchant's debit card for instant payouts",
  description: "Its brand, last four, expiry and `usable_from`; 404 `resource_missing` when the merchant has none.",
  security: security.isv,
  middleware: [withPaymentScope] as const,
  request: { params: merchantParam },
  responses: {
    200: { description: "The card", ...jsonContent(payoutCardSchema, exampleCard) },
    ...commonErrors,
  },
});

const deletePayoutCardRoute = createRoute({
  method: "delete",
  path: "/v1/merchants/{merchant_id}/payout_card",
  tags: ["Payouts"],
  summary: "Remove the merchant's debit card",
  description:
    "Instant payouts no longer go to it (an instant payout made for it and not yet sent is refused by the rail and its money comes back). 404 `resource_missing` when the merchant has none.",
  security: security.isv,
  middleware: [withPaymentScope] as const,
  request: { params: merchantParam },
  responses: {
    200: {
      description: "The card, removed",
      ...jsonContent(payoutCardSchema, { ...exampleCard, status: "removed" }),
    },
    ...commonErrors,
  },
});

export function payoutCardRoutes(app: OpenAPIHono<AppEnv>) {
  app.openapi(setPayoutCardRoute, async (c) => {
    // A new place for money to go: the ISV's, or the merchant's in its home after a fresh sign-in; never a merchant's own key.
    if (c.get("scope").merchantId)
      throw new AppError(
        "account_type_not_allowed",
        "A payout card is added by the ISV's key, or by the merchant in its home",
      );
    const { merchant_id } = c.req.valid("param");
    const card = await setPayoutCard(c.get("db"), c.get("scope"), merchant_id, c.req.valid("json").token);
    return c.json(serializePayoutCard(card), 200);
  });

  app.openapi(getPayoutCardRoute, async (c) => {
    const card = await getPayoutCard(c.get("db"), c.get("scope"), c.req.valid("param").merchant_id);
    return c.json(serializePayoutCard(card), 200);
  });

  app.openapi(deletePayoutCardRoute, async (c) => {
    const card = await deletePayoutCard(c.get("db"), c.get("scope"), c.req.valid("param").merchant_id);
    return c.json(serializePayoutCard(card), 200);
  });
}
