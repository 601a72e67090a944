import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import { z } from "zod";

import { createReport, findReport } from "../../domain/reports/create-report";
import { AppError } from "../../errors";
import { createReportSchema, reportSchema } from "../../schemas/reports";
import { type ReportJson, serializeReport } from "../../serializers/report";
import type { AppEnv } from "../context";
import { withPaymentScope } from "../middleware/payment-scope";
import { commonErrors, conflict409, jsonContent, pathId, security } from "../openapi";

export const exampleReport: ReportJson = {
  object: "report",
  id: "rep_2kT9nW4xQ8mZ1rV7pL3yBd",
  type: "balance_transactions",
  merchant_id: "mer_4kZ2qV9sT1pLmN8xRw3YbC",
  interval: { start: 1793491200000, end: 1796169600000 },
  status: "succeeded",
  failure_message: null,
  row_count: 412,
  created_at: 1796169700000,
  finished_at: 1796169701200,
};

const idParam = z.object({ report_id: pathId("report_id", exampleReport.id) });

// POST /v1/reports: ask for a report; a job makes it
const createReportRoute = createRoute({
  method: "post",
  path: "/v1/reports",
  tags: ["Reports"],
  summary: "Ask for a report",
  description:
    "A CSV made from the ledger by a job: `balance_transactions` (every balance transaction created in the interval), `payout_reconciliation` (each payout made in the interval with its lines, which add up to it), `residual_lines` (each merchant line of the ISV's residuals made in the interval: the ISV's only, a merchant's own key is answered 403 `permission_denied`). `interval.start` (included) and `interval.end` (excluded) in milliseconds, at most a year apart; `merchant_id` for one merchant (a merchant's own key: itself). Answers the report `pending`; `report.succeeded` (webhook scope `account`) when it is made, then `GET /v1/reports/{id}/download`.",
  security: security.isv,
  middleware: [withPaymentScope] as const,
  request: { body: { content: { "application/json": { schema: createReportSchema } }, required: true } },
  responses: {
    200: {
      description: "The report, pending",
      ...jsonContent(reportSchema, { ...exampleReport, status: "pending", row_count: null, finished_at: null }),
    },
    ...commonErrors,
  },
});

// GET /v1/reports/{id}: one report
const getReportRoute = createRoute({
  method: "get",
  path: "/v1/reports/{report_id}",
  tags: ["Reports"],
  summary: "Get a report",
  security: security.isv,
  middleware: [withPaymentScope] as const,
  request: { params: idParam },
  responses: {
    200: { description: "The report", ...jsonContent(reportSchema, exampleReport) },
    ...commonErrors,
  },
});

// GET /v1/reports/{id}/download: its CSV
const downloadReportRoute = createRoute({
  method: "get",
  path: "/v1/reports/{report_id}/download",
  tags: ["Reports"],
  summary: "Download a report (CSV)",
  description:
    "`text/csv`, once the report succeeded (409 `invalid_state` while it is pending or when it failed); the same bytes every time. Amounts in dollars with two decimals; cells a spreadsheet would run as formulas are neutralized.",
  security: security.isv,
  middleware: [withPaymentScope] as const,
  request: { params: idParam },
  responses: {
    200: { description: "The CSV", content: { "text/csv": { schema: z.string() } } },
    409: conflict409,
    ...commonErrors,
  },
});

export function reportRoutes(app: OpenAPIHono<AppEnv>) {
  app.openapi(createReportRoute, async (c) => {
    const row = await createReport(c.get("db"), c.get("scope"), c.req.valid("json"));
    return c.json(serializeReport(row), 200);
  });

  app.openapi(getReportRoute, async (c) => {
    return c.json(serializeReport(await findReport(c.get("db"), c.get("scope"), c.req.valid("param").report_id)), 200);
  });

  app.openapi(downloadReportRoute, async (c) => {
    const report = await findReport(c.get("db"), c.get("scope"), c.req.valid("param").report_id);
    if (report.status !== "succeeded" || report.csv === null)
      throw new AppError(
        "invalid_state",
        `Report ${report.id} is ${report.status}: its CSV is there once it succeeded`,
      );
    return c.body(report.csv, 200, {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="${report.type}-${report.id}.csv"`,
      "Cache-Control": "no-store",
    });
  });
}
