import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import { z } from "zod";

import { findTestClock } from "../../domain/test-clocks/find-test-clock";
import {
  advanceTestClock,
  createTestClock,
  deleteTestClock,
  listTestClocks,
} from "../../domain/test-clocks/test-clocks";
import { listEnvelope, listQuerySchema, toList } from "../../schemas/list";
import { advanceTestClockSchema, createTestClockSchema, testClockSchema } from "../../schemas/subscriptions";
import { serializeTestClock } from "../../serializers/subscription";
import type { AppEnv } from "../context";
import { withPaymentScope } from "../middleware/payment-scope";
import { commonErrors, conflict409, jsonContent, pathId, security } from "../openapi";

// Sandbox test clocks (docs/reference.md section 21): registered only in the sandbox.

const exampleClock = {
  object: "test_helpers.test_clock" as const,
  id: "clock_3nR7kT2mQ9xP5vL1wZ8yBc",
  name: "Three months of a gym",
  frozen_time: 1_798_761_600_000,
  status: "ready" as const,
  created_at: 1_795_370_520_000,
};
const clockId = z.object({ test_clock_id: pathId("test_clock_id", exampleClock.id) });
const clockOk = (description: string, example: object = exampleClock) => ({
  description,
  ...jsonContent(testClockSchema, example),
});

const createClockRoute = createRoute({
  method: "post",
  path: "/v1/test_helpers/test_clocks",
  tags: ["Test helpers"],
  summary: "Create a test clock",
  description:
    "Sandbox only. A clock (`clock_...`) frozen at `frozen_time` (from an hour ago to two years ahead). Customers created with `test_clock` live at its time, and so do their subscriptions.",
  security: security.isv,
  middleware: [withPaymentScope] as const,
  request: {
    body: {
      required: true,
      ...jsonContent(createTestClockSchema, { frozen_time: exampleClock.frozen_time, name: exampleClock.name }),
    },
  },
  responses: { 200: clockOk("The clock"), ...commonErrors },
});

const listClocksRoute = createRoute({
  method: "get",
  path: "/v1/test_helpers/test_clocks",
  tags: ["Test helpers"],
  summary: "List test clocks",
  description: "Sandbox only. Newest first.",
  security: security.isv,
  middleware: [withPaymentScope] as const,
  request: { query: listQuerySchema },
  responses: {
    200: {
      description: "A page of clocks",
      ...jsonContent(listEnvelope(testClockSchema, "TestClockList"), {
        object: "list",
        data: [exampleClock],
        has_more: false,
        url: "/v1/test_helpers/test_clocks",
      }),
    },
    ...commonErrors,
  },
});

const getClockRoute = createRoute({
  method: "get",
  path: "/v1/test_helpers/test_clocks/{test_clock_id}",
  tags: ["Test helpers"],
  summary: "Get a test clock",
  description: "Sandbox only. Poll it after an advance until `status` is `ready`.",
  security: security.isv,
  middleware: [withPaymentScope] as const,
  request: { params: clockId },
  responses: { 200: clockOk("The clock"), ...commonErrors },
});

const advanceClockRoute = createRoute({
  method: "post",
  path: "/v1/test_helpers/test_clocks/{test_clock_id}/advance",
  tags: ["Test helpers"],
  summary: "Advance a test clock",
  description:
    "Sandbox only. Moves the clock forward to `frozen_time` (at most two years): every renewal, retry and e-mail of its subscriptions that falls due on the way runs, in order, at its own time. Answers the clock `advancing`; poll it until `ready` (its `frozen_time` is then the new time). 409 `invalid_state` while it advances already.",
  security: security.isv,
  middleware: [withPaymentScope] as const,
  request: {
    params: clockId,
    body: { required: true, ...jsonContent(advanceTestClockSchema, { frozen_time: 1_801_440_000_000 }) },
  },
  responses: {
    200: clockOk("The clock, advancing", { ...exampleClock, status: "advancing" }),
    409: conflict409,
    ...commonErrors,
  },
});

const deleteClockRoute = createRoute({
  method: "delete",
  path: "/v1/test_helpers/test_clocks/{test_clock_id}",
  tags: ["Test helpers"],
  summary: "Delete a test clock",
  description: "Sandbox only. Its subscriptions are canceled and its customers deleted with it.",
  security: security.isv,
  middleware: [withPaymentScope] as const,
  request: { params: clockId },
  responses: {
    200: {
      description: "Deleted",
      ...jsonContent(
        z
          .object({ object: z.literal("test_helpers.test_clock"), id: z.string(), deleted: z.literal(true) })
          .meta({ id: "DeletedTestClock" }),
        { object: "test_helpers.test_clock", id: exampleClock.id, deleted: true },
      ),
    },
    409: conflict409,
    ...commonErrors,
  },
});

export function testClockRoutes(app: OpenAPIHono<AppEnv>) {
  app.openapi(createClockRoute, async (c) =>
    c.json(serializeTestClock(await createTestClock(c.get("db"), c.get("scope"), c.req.valid("json"))), 200),
  );
  app.openapi(listClocksRoute, async (c) => {
    const { rows, hasMore } = await listTestClocks(c.get("db"), c.get("scope"), c.req.valid("query"));
    return c.json(toList(rows.map(serializeTestClock), hasMore, "/v1/test_helpers/test_clocks"), 200);
  });
  app.openapi(getClockRoute, async (c) =>
    c.json(
      serializeTestClock(await findTestClock(c.get("db"), c.get("scope"), c.req.valid("param").test_clock_id)),
      200,
    ),
  );
  app.openapi(advanceClockRoute, async (c) =>
    c.json(
      serializeTestClock(
        await advanceTestClock(c.get("db"), c.get("scope"), c.req.valid("param").test_clock_id, c.req.valid("json")),
      ),
      200,
    ),
  );
  app.openapi(deleteClockRoute, async (c) =>
    c.json(await deleteTestClock(c.get("db"), c.get("scope"), c.req.valid("param").test_clock_id), 200),
  );
}
