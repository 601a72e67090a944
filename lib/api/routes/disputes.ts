import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import { z } from "zod";

import { acceptDispute } from "../../domain/disputes/accept-dispute";
import { findDispute } from "../../domain/disputes/find-dispute";
import { listDisputes } from "../../domain/disputes/list-disputes";
import { saveEvidence } from "../../domain/disputes/save-evidence";
import { submitDispute } from "../../domain/disputes/submit-dispute";
import { disputeListQuerySchema, disputeSchema, saveEvidenceSchema } from "../../schemas/disputes";
import { listEnvelope, listQuerySchema, toList } from "../../schemas/list";
import { type DisputeJson, disputeSerializerFor } from "../../serializers/dispute";
import type { AppEnv } from "../context";
import { withPaymentScope } from "../middleware/payment-scope";
import { commonErrors, conflict409, jsonContent, pathId, security } from "../openapi";

export const exampleDispute: DisputeJson = {
  object: "dispute",
  id: "dp_7hT2nW9xK4mZ1rQ6vL3yBc",
  charge_id: "ch_8nW3kQ5zX1mP7vL2rT6yBd",
  merchant_id: "mer_4kZ2qV9sT1pLmN8xRw3YbC",
  amount: 4200,
  fee: 1500,
  currency: "usd",
  reason: "product_not_received",
  status: "needs_response",
  evidence: {
    customer_name: "Ana Ruiz",
    product_description: "Two tickets for the 8 pm show, scanned at the door",
    shipping_tracking_number: null,
    uncategorized_text: null,
    receipt: "file_2kL8mW4qX9zP1vN7rT3yBd",
    customer_communication: null,
    uncategorized_file: null,
  },
  evidence_due_by: 1795996800000,
  submitted_at: null,
  closed_at: null,
  settlement_id: "stl_6pQ2nW8xK4mZ1rT7vL3yBc",
  won_settlement_id: null,
  created_at: 1795392000418,
};

const idParam = z.object({ dispute_id: pathId("dispute_id", exampleDispute.id) });

const listDisputesRoute = createRoute({
  method: "get",
  path: "/v1/disputes",
  tags: ["Disputes"],
  summary: "List disputes",
  description:
    "Disputes of the caller's merchants' card charges, newest first. Filters `merchant_id`, `charge_id`, `status`.",
  security: security.isv,
  middleware: [withPaymentScope] as const,
  request: { query: listQuerySchema.extend(disputeListQuerySchema.shape) },
  responses: {
    200: {
      description: "A page of disputes",
      ...jsonContent(listEnvelope(disputeSchema, "DisputeList"), {
        object: "list",
        data: [exampleDispute],
        has_more: false,
        url: "/v1/disputes",
      }),
    },
    ...commonErrors,
  },
});

const getDisputeRoute = createRoute({
  method: "get",
  path: "/v1/disputes/{dispute_id}",
  tags: ["Disputes"],
  summary: "Get a dispute",
  security: security.isv,
  middleware: [withPaymentScope] as const,
  request: { params: idParam },
  responses: {
    200: { description: "The dispute", ...jsonContent(disputeSchema, exampleDispute) },
    ...commonErrors,
  },
});

const saveEvidenceRoute = createRoute({
  method: "post",
  path: "/v1/disputes/{dispute_id}",
  tags: ["Disputes"],
  summary: "Save a dispute's evidence",
  description:
    "Any part of the evidence, merged into what was saved (a field sent as `null` or `\"\"` is cleared; the others stay), so a form can save as the merchant types. Files are ids of files uploaded with `POST /v1/files`, purpose `dispute_evidence`, for the dispute's merchant (another merchant's file: 404). `submit: true` also submits it. While `needs_response` and before `evidence_due_by`; else 409 `invalid_state`. Emits `dispute.updated`.",
  security: security.isv,
  middleware: [withPaymentScope] as const,
  request: {
    params: idParam,
    body: {
      required: true,
      ...jsonContent(saveEvidenceSchema, {
        evidence: { customer_name: "Ana Ruiz", receipt: "file_2kL8mW4qX9zP1vN7rT3yBd" },
      }),
    },
  },
  responses: {
    200: { description: "The dispute, with its evidence as saved", ...jsonContent(disputeSchema, exampleDispute) },
    409: conflict409,
    ...commonErrors,
  },
});

const submitDisputeRoute = createRoute({
  method: "post",
  path: "/v1/disputes/{dispute_id}/submit",
  tags: ["Disputes"],
  summary: "Submit a dispute's evidence",
  description:
    "Sends the saved evidence to the card's bank, once: `needs_response` → `under_review` (400 `parameter_missing` when nothing was saved; 409 `invalid_state` once submitted, closed or past `evidence_due_by`; of two submits at once, one wins and the other gets 409). Sandbox: evidence whose `uncategorized_text` is `winning_evidence` is won, `losing_evidence` lost, within seconds (`dispute.closed`).",
  security: security.isv,
  middleware: [withPaymentScope] as const,
  request: { params: idParam },
  responses: {
    200: {
      description: "The dispute, under review",
      ...jsonContent(disputeSchema, { ...exampleDispute, status: "under_review", submitted_at: 1795478400000 }),
    },
    409: conflict409,
    ...commonErrors,
  },
});

const acceptDisputeRoute = createRoute({
  method: "post",
  path: "/v1/disputes/{dispute_id}/accept",
  tags: ["Disputes"],
  summary: "Accept a dispute",
  description:
    "The merchant gives the disputed amount up: `needs_response` → `lost` at once (`dispute.closed`); the amount and the fee stay taken. 409 `invalid_state` from any other status.",
  security: security.isv,
  middleware: [withPaymentScope] as const,
  request: { params: idParam },
  responses: {
    200: {
      description: "The dispute, lost",
      ...jsonContent(disputeSchema, { ...exampleDispute, status: "lost", closed_at: 1795478400000 }),
    },
    409: conflict409,
    ...commonErrors,
  },
});

export function disputeRoutes(app: OpenAPIHono<AppEnv>) {
  app.openapi(listDisputesRoute, async (c) => {
    const { rows, hasMore } = await listDisputes(c.get("db"), c.get("scope"), c.req.valid("query"));
    return c.json(toList(rows.map(disputeSerializerFor(c.get("scope"))), hasMore, "/v1/disputes"), 200);
  });

  app.openapi(getDisputeRoute, async (c) =>
    c.json(
      disputeSerializerFor(c.get("scope"))(
        await findDispute(c.get("db"), c.get("scope"), c.req.valid("param").dispute_id),
      ),
      200,
    ),
  );

  app.openapi(saveEvidenceRoute, async (c) => {
    const row = await saveEvidence(c.get("db"), c.get("scope"), c.req.valid("param").dispute_id, c.req.valid("json"));
    return c.json(disputeSerializerFor(c.get("scope"))(row), 200);
  });

  app.openapi(submitDisputeRoute, async (c) =>
    c.json(
      disputeSerializerFor(c.get("scope"))(
        await submitDispute(c.get("db"), c.get("scope"), c.req.valid("param").dispute_id),
      ),
      200,
    ),
  );

  app.openapi(acceptDisputeRoute, async (c) =>
    c.json(
      disputeSerializerFor(c.get("scope"))(
        await acceptDispute(c.get("db"), c.get("scope"), c.req.valid("param").dispute_id),
      ),
      200,
    ),
  );
}
