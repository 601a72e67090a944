import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import { z } from "zod";

import { getCharge } from "../../domain/charges/find-charge";
import { listCharges } from "../../domain/charges/list-charges";
import { type ChargeJson, chargeListQuery, chargeSchema } from "../../schemas/charges";
import { listEnvelope, listQuerySchema, toList } from "../../schemas/list";
import { chargeSerializerFor } from "../../serializers/charge";
import type { AppEnv } from "../context";
import { withPaymentScope } from "../middleware/payment-scope";
import { commonErrors, jsonContent, pathId, security } from "../openapi";

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

export function chargeRoutes(app: OpenAPIHono<AppEnv>) {
  app.openapi(listChargesRoute, async (c) => {
    const { scope } = c.var;
    const { rows, hasMore, merchantOf, refundsOf } = await listCharges(c.var.db, scope, c.req.valid("query"));
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
    const { charge, merchant, refunds } = await getCharge(c.var.db, c.var.scope, c.req.valid("param").charge_id);
    return c.json(chargeSerializerFor(c.var.scope)(charge, merchant, refunds), 200);
  });
}

export { exampleCharge };
