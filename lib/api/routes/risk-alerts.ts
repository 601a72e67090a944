import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import { z } from "zod";

import { clock } from "../../clock";
import { listRiskAlerts, resolveRiskAlert, runRiskChecks } from "../../domain/risk/risk-alerts";
import { findScopedMerchant } from "../../domain/scope";
import { AppError } from "../../errors";
import { nextMidnightUtc } from "../../payouts/business-days";
import { listEnvelope, listQuerySchema, toList } from "../../schemas/list";
import { riskAlertListQuerySchema, riskAlertSchema } from "../../schemas/risk";
import { type RiskAlertJson, serializeRiskAlert } from "../../serializers/risk-alert";
import type { AppEnv } from "../context";
import { withPaymentScope } from "../middleware/payment-scope";
import { commonErrors, conflict409, jsonContent, pathId, security } from "../openapi";

export const exampleRiskAlert: RiskAlertJson = {
  object: "risk_alert",
  id: "ra_7mQ2pK9xV3nZ1rT8wL4yBc",
  merchant_id: "mer_4kZ2qV9sT1pLmN8xRw3YbC",
  rule: "refund_rate",
  figures: { refunds: 152_000, volume: 1_200_000, rate_bps: 1266, limit_bps: 1000 },
  action: "reserve",
  status: "open",
  reserve_id: "rsv_5kP2mW9xQ3nZ7rT1vL8yBd",
  created_at: 1795392000418,
  resolved_at: null,
  resolved_by: null,
};

const listRoute = createRoute({
  method: "get",
  path: "/v1/risk_alerts",
  tags: ["Risk"],
  summary: "List risk alerts",
  description:
    "What the daily risk job found after approval (the guide: /docs/guide#section-20), newest first: one alert per merchant, rule and period (a month, a day, or the charge), each with its figures and the action taken (the ISV's `settings.risk_actions`). Filters `merchant_id`, `status`. The ISV's key or dashboard only.",
  security: security.isv,
  middleware: [withPaymentScope] as const,
  request: { query: listQuerySchema.extend(riskAlertListQuerySchema.shape) },
  responses: {
    200: {
      description: "A page of risk alerts",
      ...jsonContent(listEnvelope(riskAlertSchema, "RiskAlertList"), {
        object: "list",
        data: [exampleRiskAlert],
        has_more: false,
        url: "/v1/risk_alerts",
      }),
    },
    ...commonErrors,
  },
});

const resolveRoute = createRoute({
  method: "post",
  path: "/v1/risk_alerts/{risk_alert_id}/resolve",
  tags: ["Risk"],
  summary: "Resolve a risk alert",
  description:
    "Closes the alert: payouts it paused (`pause_payouts`, `review`) go again once no other open alert pauses them. A reserve it put on stays until released (`POST /v1/merchants/{id}/reserves/{id}/release`). 409 `invalid_state` when resolved already.",
  security: security.isv,
  middleware: [withPaymentScope] as const,
  request: { params: z.object({ risk_alert_id: pathId("risk_alert_id", exampleRiskAlert.id) }) },
  responses: {
    200: {
      description: "The alert, resolved",
      ...jsonContent(riskAlertSchema, {
        ...exampleRiskAlert,
        status: "resolved",
        resolved_at: 1795478400000,
        resolved_by: "isv",
      }),
    },
    409: conflict409,
    ...commonErrors,
  },
});

const runRoute = createRoute({
  method: "post",
  path: "/v1/test_helpers/risk/run",
  tags: ["Test helpers (sandbox)"],
  summary: "Run the risk checks now",
  description:
    "Sandbox only. Runs tonight's risk checks (as the daily job does after the settlement at 00:00 UTC: the day that is ending, its month, the 30 days before) for one merchant, now. Answers the alerts raised; running again raises none for the same rule and period.",
  security: security.isv,
  middleware: [withPaymentScope] as const,
  request: {
    body: {
      required: true,
      ...jsonContent(z.strictObject({ merchant_id: z.string().max(64) }).meta({ id: "TestRiskRunRequest" }), {
        merchant_id: exampleRiskAlert.merchant_id,
      }),
    },
  },
  responses: {
    200: { description: "The alerts raised", ...jsonContent(listEnvelope(riskAlertSchema, "RiskRunList")) },
    ...commonErrors,
  },
});

function assertIsv(scope: { merchantId?: string }) {
  if (scope.merchantId) throw new AppError("account_type_not_allowed", "Risk alerts are read with the ISV's key");
}

export function riskAlertRoutes(app: OpenAPIHono<AppEnv>, options: { sandbox: boolean }) {
  if (options.sandbox)
    app.openapi(runRoute, async (c) => {
      const merchant = await findScopedMerchant(c.get("db"), c.get("scope"), c.req.valid("json").merchant_id);
      const raised = await runRiskChecks(c.get("db"), nextMidnightUtc(clock.now()), merchant.id);
      return c.json(toList(raised.map(serializeRiskAlert), false, "/v1/test_helpers/risk/run"), 200);
    });

  app.openapi(listRoute, async (c) => {
    assertIsv(c.get("scope"));
    const { rows, hasMore } = await listRiskAlerts(c.get("db"), c.get("scope"), c.req.valid("query"));
    return c.json(toList(rows.map(serializeRiskAlert), hasMore, "/v1/risk_alerts"), 200);
  });
  app.openapi(resolveRoute, async (c) => {
    assertIsv(c.get("scope"));
    const resolved = await resolveRiskAlert(c.get("db"), c.get("scope"), c.req.valid("param").risk_alert_id);
    return c.json(serializeRiskAlert(resolved), 200);
  });
}
