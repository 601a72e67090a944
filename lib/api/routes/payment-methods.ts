import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import { z } from "zod";

import { clock } from "../../clock";
import {
  createPaymentMethod,
  detachPaymentMethod,
  findPaymentMethod,
  listPaymentMethods,
} from "../../domain/customers/payment-methods";
import { createPaymentMethodSchema, paymentMethodListQuery, paymentMethodSchema } from "../../schemas/customers";
import { listEnvelope, listQuerySchema, toList } from "../../schemas/list";
import { serializePaymentMethod } from "../../serializers/customer";
import type { AppEnv } from "../context";
import { getConnInfoAddress } from "../middleware/conn-info";
import { withPaymentScope } from "../middleware/payment-scope";
import { commonErrors, conflict409, forbidden403, jsonContent, pathId, security } from "../openapi";

// A customer's saved payment methods (docs/reference.md section 21).

const exampleMethod = {
  object: "payment_method" as const,
  id: "pm_2hV8mK1qZ7xN4pL5wR9tYc",
  type: "card" as const,
  customer: "cus_5tR8mQ2zX7kP1vL9wN3yBd",
  merchant_id: "mer_4kZ2qV9sT1pLmN8xRw3YbC",
  card: {
    brand: "visa",
    last4: "4242",
    exp_month: 12,
    exp_year: 2030,
    funding: "credit",
    fingerprint: "Xq7mK2pL9sT4vN1w",
    expired: false,
  },
  us_bank_account: null,
  consent: {
    text: "Save this card for future payments to Blue Bottle Yoga. Blue Bottle Yoga may charge it for payments I agree to, and I can ask for it to be removed at any time.",
    locale: "en" as const,
    accepted_at: "2026-11-22T15:22:00.000Z",
    ip_address: "203.0.113.7",
    source: "pay_page" as const,
  },
  status: "active" as const,
  created_at: 1_795_370_520_000,
};

const methodId = z.object({ payment_method_id: pathId("payment_method_id", exampleMethod.id) });
const methodOk = (description: string, example: unknown = exampleMethod) => ({
  description,
  ...jsonContent(paymentMethodSchema, example),
});

const createMethodRoute = createRoute({
  method: "post",
  path: "/v1/payment_methods",
  tags: ["Customers"],
  summary: "Save a payment method for a customer",
  description:
    "A single-use token of the merchant's tokenizer frame (a card, or a bank account) becomes the customer's saved method (`pm_...`), with the customer's consent: `consent.accepted` must be true, and `consent.text` the words your page showed (default: ours, in `consent.locale`); the time and the client's address are kept with them. The same card saved twice for a customer is one method (its `card.fingerprint`): the later save renews its expiry. The card number stays in the processor's vault. 400 `token_invalid` for a token used, expired or another merchant's. Emits `payment_method.attached`.",
  security: security.isv,
  middleware: [withPaymentScope] as const,
  request: {
    body: {
      required: true,
      ...jsonContent(createPaymentMethodSchema, {
        token: "tok_9fK2mQ7xLp4RzW1nVb6YtC",
        customer: exampleMethod.customer,
        consent: { accepted: true, locale: "en" },
      }),
    },
  },
  responses: { 200: methodOk("The saved method"), 403: forbidden403, ...commonErrors },
});

const listMethodsRoute = createRoute({
  method: "get",
  path: "/v1/payment_methods",
  tags: ["Customers"],
  summary: "List a customer's saved payment methods",
  description:
    "Newest first; `customer` is required. Detached methods are left out; an expired card is `status: expired`.",
  security: security.isv,
  middleware: [withPaymentScope] as const,
  request: { query: listQuerySchema.extend(paymentMethodListQuery.shape) },
  responses: {
    200: {
      description: "A page of payment methods",
      ...jsonContent(listEnvelope(paymentMethodSchema, "PaymentMethodList"), {
        object: "list",
        data: [exampleMethod],
        has_more: false,
        url: "/v1/payment_methods",
      }),
    },
    ...commonErrors,
  },
});

const getMethodRoute = createRoute({
  method: "get",
  path: "/v1/payment_methods/{payment_method_id}",
  tags: ["Customers"],
  summary: "Get a saved payment method",
  security: security.isv,
  middleware: [withPaymentScope] as const,
  request: { params: methodId },
  responses: { 200: methodOk("The payment method"), ...commonErrors },
});

const detachMethodRoute = createRoute({
  method: "post",
  path: "/v1/payment_methods/{payment_method_id}/detach",
  tags: ["Customers"],
  summary: "Detach a saved payment method",
  description:
    "It is no longer the customer's, and charging it is refused from then on (400 `payment_method_unusable`). 409 `invalid_state` when detached already. Emits `payment_method.detached`.",
  security: security.isv,
  middleware: [withPaymentScope] as const,
  request: { params: methodId },
  responses: {
    200: methodOk("The method, detached", { ...exampleMethod, customer: null, status: "detached" }),
    409: conflict409,
    ...commonErrors,
  },
});

export function paymentMethodRoutes(app: OpenAPIHono<AppEnv>) {
  app.openapi(createMethodRoute, async (c) => {
    const row = await createPaymentMethod(c.get("db"), c.get("scope"), c.req.valid("json"), {
      clientAddress: getConnInfoAddress(c),
    });
    return c.json(serializePaymentMethod(row, clock.now()), 200);
  });
  app.openapi(listMethodsRoute, async (c) => {
    const { rows, hasMore } = await listPaymentMethods(c.get("db"), c.get("scope"), c.req.valid("query"));
    const now = clock.now();
    return c.json(
      toList(
        rows.map((r) => serializePaymentMethod(r, now)),
        hasMore,
        "/v1/payment_methods",
      ),
      200,
    );
  });
  app.openapi(getMethodRoute, async (c) => {
    const row = await findPaymentMethod(
      c.get("db"),
      c.get("scope"),
      c.req.valid("param").payment_method_id,
      "payment_method_id",
    );
    return c.json(serializePaymentMethod(row, clock.now()), 200);
  });
  app.openapi(detachMethodRoute, async (c) => {
    const row = await detachPaymentMethod(c.get("db"), c.get("scope"), c.req.valid("param").payment_method_id);
    return c.json(serializePaymentMethod(row, clock.now()), 200);
  });
}
