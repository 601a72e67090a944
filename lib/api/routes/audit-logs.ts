import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";

import { listAuditLogs } from "../../domain/audit/list-audit-logs";
import { auditLogListQuery, auditLogSchema } from "../../schemas/audit";
import { listEnvelope, toList } from "../../schemas/list";
import { serializeAuditLog } from "../../serializers/audit-log";
import type { AppEnv } from "../context";
import { isvOnly } from "../middleware/auth";
import { commonErrors, jsonContent, security } from "../openapi";

const example = {
  object: "audit_log",
  id: "al_5nQ2qV9sT1pLmN8xRw3YbC",
  actor: { type: "user", id: "usr_4kZ2qV9sT1pLmN8xRw3YbC", via: null },
  action: "merchant.updated",
  resource_id: "mer_4kZ2qV9sT1pLmN8xRw3YbC",
  fields: ["merchant.bank_account.account_number"],
  request_id: "req_7pQ2qV9sT1pLmN8xRw3YbC",
  client_address: "203.0.113.7",
  created_at: "2026-11-24T09:30:00.000Z",
};

// GET /v1/audit_logs: who changed what, newest first
const listRoute = createRoute({
  method: "get",
  path: "/v1/audit_logs",
  tags: ["Audit log"],
  summary: "List audit log entries",
  description:
    "Every change made by the ISV's users, its API key, the operator CLI, or its merchants (wizard, home), each recorded in the change's own transaction: who (`actor`), what (`action`, `resource_id`, the `fields` changed by name, never their values), the request id, the client's address and when. Newest first; filters `resource_id`, `actor` (an actor's id), `created[gte]` and `created[lte]` (milliseconds). Entries cannot be changed or deleted; they are kept one year.",
  security: security.isv,
  middleware: [isvOnly] as const,
  request: { query: auditLogListQuery },
  responses: {
    200: {
      description: "Audit log entries",
      ...jsonContent(listEnvelope(auditLogSchema, "AuditLogList"), {
        object: "list",
        data: [example],
        has_more: false,
        url: "/v1/audit_logs",
      }),
    },
    ...commonErrors,
  },
});

export function auditLogRoutes(app: OpenAPIHono<AppEnv>) {
  app.openapi(listRoute, async (c) => {
    const { rows, hasMore } = await listAuditLogs(c.get("db"), c.get("principal").accountId, c.req.valid("query"));
    return c.json(toList(rows.map(serializeAuditLog), hasMore, "/v1/audit_logs"), 200);
  });
}
