import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import { z } from "zod";

import { findSettlement, listSettlementCharges, listSettlements } from "../../domain/settlements/find-settlement";
import { chargeSchema } from "../../schemas/charges";
import { listEnvelope, listQuerySchema, toList } from "../../schemas/list";
import { settlementSchema } from "../../schemas/settlements";
import { chargeSerializerFor } from "../../serializers/charge";
import { serializeSettlement, type SettlementJson } from "../../serializers/settlement";
import type { AppEnv } from "../context";
import { withPaymentScope } from "../middleware/payment-scope";
import { commonErrors, jsonContent, pathId, security } from "../openapi";

export const exampleSettlement: SettlementJson = {
  object: "settlement",
  id: "stl_6pQ2nW8xK4mZ1rT7vL3yBc",
  merchant_id: "mer_4kZ2qV9sT1pLmN8xRw3YbC",
  currency: "usd",
  charge_count: 2,
  refund_count: 1,
  gross: 3466,
  refunds: 500,
  return_count: 0,
  returns: 0,
  reversal_count: 0,
  reversals: 0,
  fees: 141,
  dispute_count: 0,
  disputes: 0,
  dispute_fees: 0,
  dispute_won_count: 0,
  disputes_won: 0,
  platform_fees: 0,
  carried_in: 0,
  net: 2825,
  payout_status: "scheduled",
  cutoff: 1795392000000,
  created_at: 1795392000412,
};

const idParam = z.object({
  settlement_id: pathId("settlement_id", exampleSettlement.id),
});

// GET /v1/settlements: list settlements, newest first
const listSettlementsRoute = createRoute({
  method: "get",
  path: "/v1/settlements",
  tags: ["Settlements"],
  summary: "List settlements",
  description:
    "Each merchant's daily settlement (00:00 UTC): its AUTHORIZED charges and the refunds since the last one. Filter `merchant_id`.",
  security: security.isv,
  middleware: [withPaymentScope] as const,
  request: { query: listQuerySchema.extend({ merchant_id: z.string().max(64).optional() }) },
  responses: {
    200: {
      description: "A page of settlements",
      ...jsonContent(listEnvelope(settlementSchema, "SettlementList"), {
        object: "list",
        data: [exampleSettlement],
        has_more: false,
        url: "/v1/settlements",
      }),
    },
    ...commonErrors,
  },
});

// GET /v1/settlements/{id}: one settlement
const getSettlementRoute = createRoute({
  method: "get",
  path: "/v1/settlements/{settlement_id}",
  tags: ["Settlements"],
  summary: "Get a settlement",
  security: security.isv,
  middleware: [withPaymentScope] as const,
  request: { params: idParam },
  responses: {
    200: { description: "The settlement", ...jsonContent(settlementSchema, exampleSettlement) },
    ...commonErrors,
  },
});

// GET /v1/settlements/{id}/charges: the charges of a settlement
const listSettlementChargesRoute = createRoute({
  method: "get",
  path: "/v1/settlements/{settlement_id}/charges",
  tags: ["Settlements"],
  summary: "List a settlement's charges",
  description: "Its charges add up to its `gross` (amount_captured) and `fees` (fee) to the cent.",
  security: security.isv,
  middleware: [withPaymentScope] as const,
  request: { params: idParam, query: listQuerySchema },
  responses: {
    200: { description: "A page of charges", ...jsonContent(listEnvelope(chargeSchema, "SettlementChargeList")) },
    ...commonErrors,
  },
});

export function settlementRoutes(app: OpenAPIHono<AppEnv>) {
  app.openapi(listSettlementsRoute, async (c) => {
    const scope = c.get("scope");
    const { rows, hasMore } = await listSettlements(c.get("db"), scope, c.req.valid("query"));
    return c.json(toList(rows.map(serializeSettlement), hasMore, "/v1/settlements"), 200);
  });

  app.openapi(getSettlementRoute, async (c) => {
    const scope = c.get("scope");
    return c.json(
      serializeSettlement(await findSettlement(c.get("db"), scope, c.req.valid("param").settlement_id)),
      200,
    );
  });

  app.openapi(listSettlementChargesRoute, async (c) => {
    const scope = c.get("scope");
    const id = c.req.valid("param").settlement_id;
    const { rows, hasMore, merchant, refundsOf } = await listSettlementCharges(
      c.get("db"),
      scope,
      id,
      c.req.valid("query"),
    );
    return c.json(
      toList(
        rows.map((r) => chargeSerializerFor(scope)(r, merchant, refundsOf(r.id))),
        hasMore,
        `/v1/settlements/${id}/charges`,
      ),
      200,
    );
  });
}
