import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import { z } from "zod";

import {
  createCustomer,
  deleteCustomer,
  findCustomer,
  listCustomers,
  updateCustomer,
} from "../../domain/customers/customers";
import {
  createCustomerSchema,
  customerListQuery,
  customerSchema,
  deletedCustomerSchema,
  updateCustomerSchema,
} from "../../schemas/customers";
import { listEnvelope, listQuerySchema, toList } from "../../schemas/list";
import { serializeCustomer } from "../../serializers/customer";
import type { AppEnv } from "../context";
import { withPaymentScope } from "../middleware/payment-scope";
import { commonErrors, jsonContent, pathId, security } from "../openapi";

// Customers and their saved payment methods (docs/reference.md section 21).

const exampleCustomer = {
  object: "customer" as const,
  id: "cus_5tR8mQ2zX7kP1vL9wN3yBd",
  merchant_id: "mer_4kZ2qV9sT1pLmN8xRw3YbC",
  name: "Dana Whitfield",
  email: "dana@example.com",
  phone: "+14155550123",
  metadata: { member_id: "GYM-2207" },
  test_clock: null,
  created_at: 1_795_370_520_000,
};
const customerId = z.object({ customer_id: pathId("customer_id", exampleCustomer.id) });
const customerOk = (description: string) => ({ description, ...jsonContent(customerSchema, exampleCustomer) });

const createCustomerRoute = createRoute({
  method: "post",
  path: "/v1/customers",
  tags: ["Customers"],
  summary: "Create a customer",
  description:
    "A merchant's customer (`cus_...`), to save payment methods for and charge again without them present. `merchant_id` is required with the ISV's key; a merchant's own key makes its own. `phone` in E.164 or 10 US digits (kept in E.164). Emits `customer.created`.",
  security: security.isv,
  middleware: [withPaymentScope] as const,
  request: {
    body: {
      required: true,
      ...jsonContent(createCustomerSchema, {
        merchant_id: exampleCustomer.merchant_id,
        name: exampleCustomer.name,
        email: exampleCustomer.email,
        phone: exampleCustomer.phone,
        metadata: exampleCustomer.metadata,
      }),
    },
  },
  responses: { 200: customerOk("The customer"), ...commonErrors },
});

const listCustomersRoute = createRoute({
  method: "get",
  path: "/v1/customers",
  tags: ["Customers"],
  summary: "List customers",
  description:
    "Newest first; filters `merchant_id` and `email` (the exact address, any case). Deleted customers are left out.",
  security: security.isv,
  middleware: [withPaymentScope] as const,
  request: { query: listQuerySchema.extend(customerListQuery.shape) },
  responses: {
    200: {
      description: "A page of customers",
      ...jsonContent(listEnvelope(customerSchema, "CustomerList"), {
        object: "list",
        data: [exampleCustomer],
        has_more: false,
        url: "/v1/customers",
      }),
    },
    ...commonErrors,
  },
});

const getCustomerRoute = createRoute({
  method: "get",
  path: "/v1/customers/{customer_id}",
  tags: ["Customers"],
  summary: "Get a customer",
  description: "404 `resource_missing` once deleted, or when it is another account's.",
  security: security.isv,
  middleware: [withPaymentScope] as const,
  request: { params: customerId },
  responses: { 200: customerOk("The customer"), ...commonErrors },
});

const updateCustomerRoute = createRoute({
  method: "post",
  path: "/v1/customers/{customer_id}",
  tags: ["Customers"],
  summary: "Update a customer",
  description:
    "The fields given change; `null` clears `name`, `email` or `phone`. `metadata` merges: a key sent with an empty string is removed. Emits `customer.updated`.",
  security: security.isv,
  middleware: [withPaymentScope] as const,
  request: {
    params: customerId,
    body: { required: true, ...jsonContent(updateCustomerSchema, { email: "dana.w@example.com" }) },
  },
  responses: { 200: customerOk("The customer, updated"), ...commonErrors },
});

const deleteCustomerRoute = createRoute({
  method: "delete",
  path: "/v1/customers/{customer_id}",
  tags: ["Customers"],
  summary: "Delete a customer",
  description:
    "The customer leaves every list and lookup, and its saved payment methods are detached with it (they can never be charged again). Its charges stay, naming it. Emits `customer.deleted`.",
  security: security.isv,
  middleware: [withPaymentScope] as const,
  request: { params: customerId },
  responses: {
    200: {
      description: "Deleted",
      ...jsonContent(deletedCustomerSchema, { object: "customer", id: exampleCustomer.id, deleted: true }),
    },
    ...commonErrors,
  },
});

export function customerRoutes(app: OpenAPIHono<AppEnv>) {
  app.openapi(createCustomerRoute, async (c) =>
    c.json(serializeCustomer(await createCustomer(c.get("db"), c.get("scope"), c.req.valid("json"))), 200),
  );
  app.openapi(listCustomersRoute, async (c) => {
    const { rows, hasMore } = await listCustomers(c.get("db"), c.get("scope"), c.req.valid("query"));
    return c.json(toList(rows.map(serializeCustomer), hasMore, "/v1/customers"), 200);
  });
  app.openapi(getCustomerRoute, async (c) =>
    c.json(
      serializeCustomer(
        await findCustomer(c.get("db"), c.get("scope"), c.req.valid("param").customer_id, "customer_id"),
      ),
      200,
    ),
  );
  app.openapi(updateCustomerRoute, async (c) =>
    c.json(
      serializeCustomer(
        await updateCustomer(c.get("db"), c.get("scope"), c.req.valid("param").customer_id, c.req.valid("json")),
      ),
      200,
    ),
  );
  app.openapi(deleteCustomerRoute, async (c) =>
    c.json(await deleteCustomer(c.get("db"), c.get("scope"), c.req.valid("param").customer_id), 200),
  );
}
