import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import { z } from "zod";

import { subscriptionJson, subscriptionsJson } from "../../domain/subscriptions/json";
import {
  cancelSubscription,
  createSubscription,
  findSubscription,
  listSubscriptions,
  updateSubscription,
} from "../../domain/subscriptions/subscriptions";
import { listEnvelope, listQuerySchema, toList } from "../../schemas/list";
import {
  createSubscriptionSchema,
  subscriptionListQuery,
  subscriptionSchema,
  updateSubscriptionSchema,
} from "../../schemas/subscriptions";
import type { AppEnv } from "../context";
import { withPaymentScope } from "../middleware/payment-scope";
import { commonErrors, conflict409, jsonContent, pathId, security } from "../openapi";

// Subscriptions (docs/reference.md section 21).

const exampleSubscription = {
  object: "subscription" as const,
  id: "sub_7yT4kP9mQ2xR5vL8wN3zBc",
  merchant_id: "mer_4kZ2qV9sT1pLmN8xRw3YbC",
  customer: "cus_5tR8mQ2zX7kP1vL9wN3yBd",
  payment_method: "pm_8hJ3kL5nP7qR9sT1vW2xYz",
  status: "active" as const,
  items: [{ name: "Monthly membership", unit_price: 4900, quantity: 1 }],
  amount: 4900,
  currency: "usd" as const,
  description: "Gym membership",
  interval: "month" as const,
  interval_count: 1,
  current_period_start: 1_795_370_520_000,
  current_period_end: 1_798_048_920_000,
  trial_end: null,
  cancel_at_period_end: false,
  latest_invoice: "pr_2mN8kQ4xT7vR1pL9wZ3yBc",
  attempt_count: 0,
  last_decline_code: null,
  next_payment_attempt: null,
  recovered_amount: 0,
  test_clock: null,
  metadata: { member_id: "GYM-2207" },
  created_at: 1_795_370_520_000,
  canceled_at: null,
  ended_at: null,
};
const subscriptionId = z.object({ subscription_id: pathId("subscription_id", exampleSubscription.id) });
const subscriptionOk = (description: string, example: object = exampleSubscription) => ({
  description,
  ...jsonContent(subscriptionSchema, example),
});

const createSubscriptionRoute = createRoute({
  method: "post",
  path: "/v1/subscriptions",
  tags: ["Subscriptions"],
  summary: "Create a subscription",
  description:
    "Bills a customer's saved method each period (`sub_...`). With `trial_days`, `trialing` until the trial ends; without, the first period is charged before the answer: `active`, or `past_due` when declined (retried on days 1, 3, 5 and 7, the customer e-mailed a pay link each time; a hard decline such as a stolen card is not retried). Each period's payment is a payment request of type INVOICE (`latest_invoice`). Emits `subscription.created`, then `invoice.paid` or `invoice.payment_failed`. 400 `payment_method_unusable` / `payment_method_expired` before any charge.",
  security: security.isv,
  middleware: [withPaymentScope] as const,
  request: {
    body: {
      required: true,
      ...jsonContent(createSubscriptionSchema, {
        merchant_id: exampleSubscription.merchant_id,
        customer: exampleSubscription.customer,
        payment_method: exampleSubscription.payment_method,
        items: exampleSubscription.items,
        interval: "month",
      }),
    },
  },
  responses: { 200: subscriptionOk("The subscription"), ...commonErrors },
});

const listSubscriptionsRoute = createRoute({
  method: "get",
  path: "/v1/subscriptions",
  tags: ["Subscriptions"],
  summary: "List subscriptions",
  description: "Newest first; filters `merchant_id`, `customer` and `status`.",
  security: security.isv,
  middleware: [withPaymentScope] as const,
  request: { query: listQuerySchema.extend(subscriptionListQuery.shape) },
  responses: {
    200: {
      description: "A page of subscriptions",
      ...jsonContent(listEnvelope(subscriptionSchema, "SubscriptionList"), {
        object: "list",
        data: [exampleSubscription],
        has_more: false,
        url: "/v1/subscriptions",
      }),
    },
    ...commonErrors,
  },
});

const getSubscriptionRoute = createRoute({
  method: "get",
  path: "/v1/subscriptions/{subscription_id}",
  tags: ["Subscriptions"],
  summary: "Get a subscription",
  description: "404 `resource_missing` when it is another account's.",
  security: security.isv,
  middleware: [withPaymentScope] as const,
  request: { params: subscriptionId },
  responses: { 200: subscriptionOk("The subscription"), ...commonErrors },
});

const updateSubscriptionRoute = createRoute({
  method: "post",
  path: "/v1/subscriptions/{subscription_id}",
  tags: ["Subscriptions"],
  summary: "Update a subscription",
  description:
    "Another of the customer's saved methods (a `past_due` subscription is tried on it at once), `cancel_at_period_end` (the subscription ends when its current period does, with nothing more charged), metadata. Emits `subscription.updated`. 409 `invalid_state` once canceled.",
  security: security.isv,
  middleware: [withPaymentScope] as const,
  request: {
    params: subscriptionId,
    body: { required: true, ...jsonContent(updateSubscriptionSchema, { cancel_at_period_end: true }) },
  },
  responses: {
    200: subscriptionOk("The subscription, updated", { ...exampleSubscription, cancel_at_period_end: true }),
    409: conflict409,
    ...commonErrors,
  },
});

const cancelSubscriptionRoute = createRoute({
  method: "post",
  path: "/v1/subscriptions/{subscription_id}/cancel",
  tags: ["Subscriptions"],
  summary: "Cancel a subscription",
  description:
    "Ends it now: nothing more is charged, and its open invoice (a period not yet paid) is canceled. Emits `subscription.canceled`. 409 `invalid_state` when canceled already; 409 `payment_in_progress` while the customer is paying that invoice.",
  security: security.isv,
  middleware: [withPaymentScope] as const,
  request: { params: subscriptionId },
  responses: {
    200: subscriptionOk("The subscription, canceled", {
      ...exampleSubscription,
      status: "canceled",
      canceled_at: 1_796_000_000_000,
      ended_at: 1_796_000_000_000,
    }),
    409: conflict409,
    ...commonErrors,
  },
});

export function subscriptionRoutes(app: OpenAPIHono<AppEnv>) {
  app.openapi(createSubscriptionRoute, async (c) =>
    c.json(
      await subscriptionJson(c.get("db"), await createSubscription(c.get("db"), c.get("scope"), c.req.valid("json"))),
      200,
    ),
  );
  app.openapi(listSubscriptionsRoute, async (c) => {
    const { rows, hasMore } = await listSubscriptions(c.get("db"), c.get("scope"), c.req.valid("query"));
    return c.json(toList(await subscriptionsJson(c.get("db"), rows), hasMore, "/v1/subscriptions"), 200);
  });
  app.openapi(getSubscriptionRoute, async (c) =>
    c.json(
      await subscriptionJson(
        c.get("db"),
        await findSubscription(c.get("db"), c.get("scope"), c.req.valid("param").subscription_id),
      ),
      200,
    ),
  );
  app.openapi(updateSubscriptionRoute, async (c) =>
    c.json(
      await subscriptionJson(
        c.get("db"),
        await updateSubscription(
          c.get("db"),
          c.get("scope"),
          c.req.valid("param").subscription_id,
          c.req.valid("json"),
        ),
      ),
      200,
    ),
  );
  app.openapi(cancelSubscriptionRoute, async (c) =>
    c.json(
      await subscriptionJson(
        c.get("db"),
        await cancelSubscription(c.get("db"), c.get("scope"), c.req.valid("param").subscription_id),
      ),
      200,
    ),
  );
}
