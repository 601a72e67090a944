import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import { z } from "zod";

import { createRefund } from "../../domain/refunds/create-refund";
import { findRefund } from "../../domain/refunds/find-refund";
import { listRefunds } from "../../domain/refunds/list-refunds";
import { refundCeilingFor } from "../../domain/team/members";
import { listEnvelope, listQuerySchema, toList } from "../../schemas/list";
import { createRefundSchema, type RefundJson, refundListQuery, refundSchema } from "../../schemas/refunds";
import { serializeRefund } from "../../serializers/refund";
import type { AppEnv } from "../context";
import { withPaymentScope } from "../middleware/payment-scope";
import { commonErrors, conflict409, jsonContent, pathId, security } from "../openapi";

const exampleRefund: RefundJson = {
  object: "refund",
  id: "re_5tG8mW2qK7xZ1pN4vL9rYc",
  charge_id: "ch_8nW3kQ5zX1mP7vL2rT6yBd",
  merchant_id: "mer_4kZ2qV9sT1pLmN8xRw3YbC",
  amount: 500,
  currency: "usd",
  reason: "requested_by_customer",
  status: "succeeded",
  failure_reason: null,
  platform_fee_refund: 0,
  created_at: 1795370820000,
};

// POST /v1/refunds: refund part or all of a charge
const refundChargeRoute = createRoute({
  method: "post",
  path: "/v1/refunds",
  tags: ["Refunds"],
  summary: "Refund a charge",
  description:
    "`amount` defaults to what is left. The refunded total can never exceed the charge's `amount_captured`, even when refunds race: 400 `refund_exceeds_charge`. A FAILED charge: 409 `invalid_state`. Sandbox: a refund of exactly 666 cents is declined by the processor (400 `refund_failed`) and changes nothing. Emits `refund.created` and `charge.refunded`. Processing fees are not returned. When the processor does not answer in time the refund is answered `pending` (its amount already counts in the charge's `amount_refunded`): the platform asks the processor again under the same idempotency key, never refunding twice, and sends `refund.created` or `refund.failed` when it knows.",
  security: security.isv,
  middleware: [withPaymentScope] as const,
  request: {
    body: {
      required: true,
      ...jsonContent(createRefundSchema, {
        charge_id: "ch_8nW3kQ5zX1mP7vL2rT6yBd",
        amount: 500,
        reason: "requested_by_customer",
      }),
    },
  },
  responses: {
    200: { description: "The refund", ...jsonContent(refundSchema, exampleRefund) },
    ...commonErrors,
    409: conflict409,
  },
});

// GET /v1/refunds: list refunds, newest first
const listRefundsRoute = createRoute({
  method: "get",
  path: "/v1/refunds",
  tags: ["Refunds"],
  summary: "List refunds",
  security: security.isv,
  middleware: [withPaymentScope] as const,
  request: { query: listQuerySchema.extend(refundListQuery.shape) },
  responses: {
    200: {
      description: "A page of refunds",
      ...jsonContent(listEnvelope(refundSchema, "RefundList"), {
        object: "list",
        data: [exampleRefund],
        has_more: false,
        url: "/v1/refunds",
      }),
    },
    ...commonErrors,
  },
});

// GET /v1/refunds/{refund_id}: one refund
const getRefundRoute = createRoute({
  method: "get",
  path: "/v1/refunds/{refund_id}",
  tags: ["Refunds"],
  summary: "Get a refund",
  security: security.isv,
  middleware: [withPaymentScope] as const,
  request: {
    params: z.object({
      refund_id: pathId("refund_id", exampleRefund.id),
    }),
  },
  responses: { 200: { description: "The refund", ...jsonContent(refundSchema, exampleRefund) }, ...commonErrors },
});

export function refundRoutes(app: OpenAPIHono<AppEnv>) {
  app.openapi(refundChargeRoute, async (c) => {
    const scope = c.get("scope");
    const principal = c.get("principal");
    // A `support` member refunds up to the limit its owner set (docs/reference.md section 23).
    const maxAmount = await refundCeilingFor(c.get("db"), principal);
    return c.json(
      serializeRefund(
        await createRefund(c.get("db"), scope, c.req.valid("json"), { requestKey: c.get("requestKey"), maxAmount }),
      ),
      200,
    );
  });

  app.openapi(listRefundsRoute, async (c) => {
    const scope = c.get("scope");
    const { rows, hasMore } = await listRefunds(c.get("db"), scope, c.req.valid("query"));
    return c.json(toList(rows.map(serializeRefund), hasMore, "/v1/refunds"), 200);
  });

  app.openapi(getRefundRoute, async (c) => {
    const scope = c.get("scope");
    return c.json(serializeRefund(await findRefund(c.get("db"), scope, c.req.valid("param").refund_id)), 200);
  });
}
