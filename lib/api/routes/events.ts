import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import { z } from "zod";

import { findEvent, listEvents } from "../../domain/events/list-events";
import { eventTypes } from "../../events/catalogue";
import { listEnvelope, listQuerySchema, toList } from "../../schemas/list";
import { eventSchema } from "../../schemas/webhook";
import { serializeEvent } from "../../serializers/event";
import type { AppEnv } from "../context";
import { isvOnly } from "../middleware/auth";
import { commonErrors, jsonContent, pathId, security } from "../openapi";

const exampleEvent = {
  id: "evt_5nQ2qV9sT1pLmN8xRw3YbC",
  object: "event",
  type: "merchant.submitted",
  created_at: "2026-11-01T09:30:00.000Z",
  account_id: "acct_4kZ2qV9sT1pLmN8xRw3YbC",
  data: { object: { object: "merchant", id: "mer_4kZ2qV9sT1pLmN8xRw3YbC", lead_onboarding_status: "COMPLETED" } },
};

// GET /v1/events: the account's events, newest first (reconciliation)
const listEventsRoute = createRoute({
  method: "get",
  path: "/v1/events",
  tags: ["Events"],
  summary: "List events",
  security: security.isv,
  middleware: [isvOnly] as const,
  request: { query: listQuerySchema.extend({ type: z.enum(eventTypes).optional() }) },
  responses: {
    200: {
      description: "Events",
      ...jsonContent(listEnvelope(eventSchema, "EventList"), {
        object: "list",
        data: [exampleEvent],
        has_more: false,
        url: "/v1/events",
      }),
    },
    ...commonErrors,
  },
});

// GET /v1/events/{event_id}: one event
const getEventRoute = createRoute({
  method: "get",
  path: "/v1/events/{event_id}",
  tags: ["Events"],
  summary: "Get an event",
  security: security.isv,
  middleware: [isvOnly] as const,
  request: {
    params: z.object({
      event_id: pathId("event_id", exampleEvent.id),
    }),
  },
  responses: { 200: { description: "The event", ...jsonContent(eventSchema, exampleEvent) }, ...commonErrors },
});

export function eventRoutes(app: OpenAPIHono<AppEnv>) {
  app.openapi(listEventsRoute, async (c) => {
    const { rows, hasMore } = await listEvents(c.get("db"), c.get("principal").accountId, c.req.valid("query"));
    return c.json(toList(rows.map(serializeEvent), hasMore, "/v1/events"), 200);
  });

  app.openapi(getEventRoute, async (c) =>
    c.json(
      serializeEvent(await findEvent(c.get("db"), c.get("principal").accountId, c.req.valid("param").event_id)),
      200,
    ),
  );
}
