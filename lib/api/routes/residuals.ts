import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import { z } from "zod";

import { downloadResidual } from "../../domain/residuals/download-residual";
import { findResidual, listResidualLines, listResiduals } from "../../domain/residuals/find-residual";
import { listEnvelope, listQuerySchema, toList } from "../../schemas/list";
import { residualDownloadQuery, type ResidualJson, residualLineSchema, residualSchema } from "../../schemas/residuals";
import { serializeResidual, serializeResidualLine } from "../../serializers/residual";
import type { AppEnv } from "../context";
import { isvOnly } from "../middleware/auth";
import { commonErrors, jsonContent, pathId, security } from "../openapi";

export const exampleResidual: ResidualJson = {
  object: "residual",
  id: "res_7hQ2mX9kT4wZ1pL8vN3rYd",
  period: "2026-10",
  volume: 48_210_500,
  count: 1_204,
  merchant_fees: 1_402_311,
  costs: 998_120,
  margin: 404_191,
  share: 323_353,
  platform_fees: 60_250,
  revenue_share_percent: 80,
  adjustments: 0,
  carried_in: 0,
  amount: 383_603,
  status: "pending",
  payout_id: null,
  line_count: 12,
  created_at: 1_793_502_000_000,
};

const idParam = z.object({ residual_id: pathId("residual_id", exampleResidual.id) });

// GET /v1/residuals: the ISV's residuals, newest first
const listResidualsRoute = createRoute({
  method: "get",
  path: "/v1/residuals",
  tags: ["Residuals"],
  summary: "List residuals",
  description:
    "What the ISV earned each month (the guide: /docs/guide#section-19), newest first: made on the 1st for the month before (sandbox: `POST /v1/test_helpers/residuals/generate`). The ISV's key or JWT only.",
  security: security.isv,
  middleware: [isvOnly] as const,
  request: { query: listQuerySchema },
  responses: {
    200: {
      description: "A page of residuals",
      ...jsonContent(listEnvelope(residualSchema, "ResidualList"), {
        object: "list",
        data: [exampleResidual],
        has_more: false,
        url: "/v1/residuals",
      }),
    },
    ...commonErrors,
  },
});

// GET /v1/residuals/{id}
const getResidualRoute = createRoute({
  method: "get",
  path: "/v1/residuals/{residual_id}",
  tags: ["Residuals"],
  summary: "Get a residual",
  security: security.isv,
  middleware: [isvOnly] as const,
  request: { params: idParam },
  responses: {
    200: { description: "The residual", ...jsonContent(residualSchema, exampleResidual) },
    ...commonErrors,
  },
});

// GET /v1/residuals/{id}/lines
const residualLinesRoute = createRoute({
  method: "get",
  path: "/v1/residuals/{residual_id}/lines",
  tags: ["Residuals"],
  summary: "List a residual's lines",
  description:
    "One line per merchant with activity in the month, the largest amount first, with the residual's figures; their `amount`s plus the residual's `carried_in` and `adjustments` are its `amount`. Cursors: a line's `merchant_id`.",
  security: security.isv,
  middleware: [isvOnly] as const,
  request: { params: idParam, query: listQuerySchema },
  responses: {
    200: {
      description: "A page of lines",
      ...jsonContent(listEnvelope(residualLineSchema, "ResidualLineList")),
    },
    ...commonErrors,
  },
});

// GET /v1/residuals/{id}/download
const downloadResidualRoute = createRoute({
  method: "get",
  path: "/v1/residuals/{residual_id}/download",
  tags: ["Residuals"],
  summary: "Download a residual (PDF or CSV)",
  description:
    "`application/pdf` by default, in the platform's brand and addressed to the ISV: the month's figures and one line per merchant. `?format=csv`: one row per merchant, then what was carried in and the adjustments, so that the `amount` column adds up to the residual (dollars with two decimals; cells a spreadsheet would run as formulas are neutralized). Both from the same rows.",
  security: security.isv,
  middleware: [isvOnly] as const,
  request: { params: idParam, query: residualDownloadQuery },
  responses: {
    200: {
      description: "The residual",
      content: {
        "application/pdf": { schema: z.string().meta({ format: "binary" }) },
        "text/csv": { schema: z.string() },
      },
    },
    ...commonErrors,
  },
});

export function residualRoutes(app: OpenAPIHono<AppEnv>) {
  app.openapi(listResidualsRoute, async (c) => {
    const { rows, hasMore } = await listResiduals(c.get("db"), c.get("principal").accountId, c.req.valid("query"));
    return c.json(toList(rows.map(serializeResidual), hasMore, "/v1/residuals"), 200);
  });

  app.openapi(getResidualRoute, async (c) =>
    c.json(
      serializeResidual(
        await findResidual(c.get("db"), c.get("principal").accountId, c.req.valid("param").residual_id),
      ),
      200,
    ),
  );

  app.openapi(residualLinesRoute, async (c) => {
    const id = c.req.valid("param").residual_id;
    const { residual, rows, hasMore } = await listResidualLines(
      c.get("db"),
      c.get("principal").accountId,
      id,
      c.req.valid("query"),
    );
    return c.json(toList(rows.map(serializeResidualLine), hasMore, `/v1/residuals/${residual.id}/lines`), 200);
  });

  app.openapi(downloadResidualRoute, async (c) => {
    const file = await downloadResidual(
      c.get("db"),
      c.get("principal").accountId,
      c.req.valid("param").residual_id,
      c.req.valid("query").format,
    );
    return c.body(file.body, 200, {
      "Content-Type": file.contentType,
      "Content-Disposition": `attachment; filename="${file.filename}"`,
      "Cache-Control": "no-store",
    });
  });
}
