import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import { z } from "zod";

import { chargeSavedMethod } from "../../domain/charges/charge-saved-method";
import { getCharge } from "../../domain/charges/find-charge";
import { listCharges } from "../../domain/charges/list-charges";
import { type ChargeJson, chargeListQuery, chargeSchema } from "../../schemas/charges";
import { savedChargeSchema } from "../../schemas/customers";
import { listEnvelope, listQuerySchema, toList } from "../../schemas/list";
import { chargeSerializerFor } from "../../serializers/charge";
import type { AppEnv } from "../context";
import { errorBodySchema } from "../errors";
import { withPaymentScope } from "../middleware/payment-scope";
import { commonErrors, forbidden403, jsonContent, pathId, security } from "../openapi";

const exampleCharge: ChargeJson = {
  object: "charge",
  id: "ch_8nW3kQ5zX1mP7vL2rT6yBd",
  merchant: {
    id: "mer_4kZ2qV9sT1pLmN8xRw3YbC",
    gateway_merchant_id: "gw_2bT7nQ4xK9mL1pZ6vR3wYc",
    api_key: "****************************Qx7p",
    pub_api_key: "pk_test_4eC39HqLyjWDarjtT1zdp7dc4eC39HqL",
    processors: [{ id: "proc_6yH2mK8qZ4xN1pL7wR3tVb", processor_type: "CREDIT_CARD" }],
  },
  payment_request_id: "pr_3hV8mK1qZ7xN2pL5wR9tYb",
  customer: null,
  payment_method_id: null,
  payment_type: "SCAN_TO_PAY",
  status: "AUTHORIZED",
  currency: "usd",
  requested_amount: 1245,
  amount_authorized: 1245,
  amount_captured: 1245,
  amount_refunded: 0,
  tip: 0,
  tax: 95,
  payment_method: "card",
  processor: { id: "proc_6yH2mK8qZ4xN1pL7wR3tVb", processor_type: "CREDIT_CARD" },
  card_last_4: "4242",
  card_brand: "visa",
  card_expiration_date: "12/2030",
  card_type: "credit",
  card_entry_method: "MANUAL",
  billing_address: { phone: null, email: "customer@example.com" },
  failure_reason: null,
  receipt_number: "20261122-8NW3KQ5Z",
  fee: null,
  net: null,
  fee_details: null,
  platform_fee: null,
  settlement_id: null,
  refunds: [],
  created_at: 1795370520000,
  authorized_at: 1795370520000,
  captured_at: 1795370520000,
  settled_at: null,
  returned_at: null,
  return_reversed_at: null,
  disputed: false,
  dispute_id: null,
};

// GET /v1/charges: list charges, newest first
const listChargesRoute = createRoute({
  method: "get",
  path: "/v1/charges",
  tags: ["Charges"],
  summary: "List charges",
  description:
    "Newest first; filters `merchant_id`, `status` (`AUTHORIZED`, `SETTLED`, `FAILED`), `created[gte]` and `created[lte]` (milliseconds).",
  security: security.isv,
  middleware: [withPaymentScope] as const,
  request: { query: listQuerySchema.extend(chargeListQuery.shape) },
  responses: {
    200: {
      description: "A page of charges",
      ...jsonContent(listEnvelope(chargeSchema, "ChargeList"), {
        object: "list",
        data: [exampleCharge],
        has_more: false,
        url: "/v1/charges",
      }),
    },
    ...commonErrors,
  },
});

// GET /v1/charges/{charge_id}: one charge
const getChargeRoute = createRoute({
  method: "get",
  path: "/v1/charges/{charge_id}",
  tags: ["Charges"],
  summary: "Get a charge",
  security: security.isv,
  middleware: [withPaymentScope] as const,
  request: {
    params: z.object({
      charge_id: pathId("charge_id", "ch_8nW3kQ5zX1mP7vL2rT6yBd"),
    }),
  },
  responses: { 200: { description: "The charge", ...jsonContent(chargeSchema, exampleCharge) }, ...commonErrors },
});

// POST /v1/charges: a customer's saved method charged without them (docs/reference.md section 21)
const createChargeRoute = createRoute({
  method: "post",
  path: "/v1/charges",
  tags: ["Charges"],
  summary: "Charge a customer's saved payment method",
  description:
    "A merchant-initiated charge: the customer is not present, and their saved method (`pm_...`, kept with their consent) pays `amount` (+ `tip` + `tax`). The charge is made through a MANUAL payment request made for it (`payment_request_id`, with `customer`), with the same fees, ledger, events and receipt (to the customer's e-mail) as any payment. A decline answers 402 `card_declined` with `decline_code` and the failed `charge` (its request is canceled). 400 `payment_method_unusable` for a method detached or another customer's, `payment_method_expired` for a card past its expiry (nothing is sent to the card network). Card testing: a card declined 10 times in 24 hours is refused, and a merchant's saved methods declined 20 times in an hour (429 `too_many_declines` with `Retry-After`). Send an `Idempotency-Key`: a retry then never charges twice.",
  security: security.isv,
  middleware: [withPaymentScope] as const,
  request: {
    body: {
      required: true,
      ...jsonContent(savedChargeSchema, {
        merchant_id: "mer_4kZ2qV9sT1pLmN8xRw3YbC",
        customer: "cus_5tR8mQ2zX7kP1vL9wN3yBd",
        payment_method: "pm_2hV8mK1qZ7xN4pL5wR9tYc",
        amount: 4500,
        description: "November membership",
      }),
    },
  },
  responses: {
    200: {
      description: "The charge",
      ...jsonContent(chargeSchema, {
        ...exampleCharge,
        payment_type: "MANUAL",
        customer: "cus_5tR8mQ2zX7kP1vL9wN3yBd",
        payment_method_id: "pm_2hV8mK1qZ7xN4pL5wR9tYc",
      }),
    },
    402: {
      description: "Declined (`card_declined`): `error.decline_code` says why, `error.charge` is the failed charge",
      content: { "application/json": { schema: errorBodySchema } },
    },
    403: forbidden403,
    ...commonErrors,
  },
});

export function chargeRoutes(app: OpenAPIHono<AppEnv>) {
  app.openapi(createChargeRoute, async (c) =>
    c.json(await chargeSavedMethod(c.get("db"), c.get("scope"), c.req.valid("json")), 200),
  );

  app.openapi(listChargesRoute, async (c) => {
    const scope = c.get("scope");
    const { rows, hasMore, merchantOf, refundsOf } = await listCharges(c.get("db"), scope, c.req.valid("query"));
    const serialize = chargeSerializerFor(scope);
    return c.json(
      toList(
        rows.map((r) => serialize(r, merchantOf(r), refundsOf(r))),
        hasMore,
        "/v1/charges",
      ),
      200,
    );
  });

  app.openapi(getChargeRoute, async (c) => {
    const { charge, merchant, refunds } = await getCharge(c.get("db"), c.get("scope"), c.req.valid("param").charge_id);
    return c.json(chargeSerializerFor(c.get("scope"))(charge, merchant, refunds), 200);
  });
}

export { exampleCharge };
