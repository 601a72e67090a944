import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import { z } from "zod";

import type { Db } from "../../db/types";
import type { Scope } from "../../domain/scope";
import { findScopedMerchant } from "../../domain/scope";
import { downloadStatement } from "../../domain/statements/download-statement";
import { findStatement, listStatements } from "../../domain/statements/find-statement";
import { listEnvelope, listQuerySchema, toList } from "../../schemas/list";
import { statementDetailSchema, statementSchema } from "../../schemas/statements";
import { serializeStatement, serializeStatementDetail } from "../../serializers/statement";
import type { AppEnv } from "../context";
import { withPaymentScope } from "../middleware/payment-scope";
import { commonErrors, jsonContent, pathId, security } from "../openapi";

const example = {
  object: "statement" as const,
  id: "stmt_3kP8vN2qW6xZ1mL9rT4yBc",
  merchant_id: "mer_4kZ2qV9sT1pLmN8xRw3YbC",
  period: "2026-10",
  currency: "usd" as const,
  charge_count: 412,
  refund_count: 3,
  gross_volume: 1845230,
  refunds: 12400,
  return_count: 0,
  returns: 0,
  reversal_count: 0,
  reversals: 0,
  fees: 56321,
  platform_fees: 0,
  net: 1776509,
  final: true,
  created_at: "2026-11-01T02:00:04.120Z",
};
const merchantParam = pathId("merchantId", example.merchant_id);
const statementParam = pathId("statementId", example.id);

async function merchantOf(c: { get(key: "db"): Db; get(key: "scope"): Scope }, merchantId: string) {
  return findScopedMerchant(c.get("db"), c.get("scope"), merchantId);
}

// GET /v1/statements/{merchantId}: the merchant's monthly statements
const listMerchantStatementsRoute = createRoute({
  method: "get",
  path: "/v1/statements/{merchantId}",
  tags: ["Statements"],
  summary: "List a merchant's statements",
  description:
    "One statement per calendar month with activity, made after the month ends (a snapshot: later activity never changes it). Newest first.",
  security: security.isv,
  middleware: [withPaymentScope] as const,
  request: { params: z.object({ merchantId: merchantParam }), query: listQuerySchema },
  responses: {
    200: {
      description: "A page of statements",
      ...jsonContent(listEnvelope(statementSchema, "StatementList"), {
        object: "list",
        data: [example],
        has_more: false,
        url: `/v1/statements/${example.merchant_id}`,
      }),
    },
    ...commonErrors,
  },
});

// GET /v1/statements/{merchantId}/{statementId}: one statement with its lines
const getStatementRoute = createRoute({
  method: "get",
  path: "/v1/statements/{merchantId}/{statementId}",
  tags: ["Statements"],
  summary: "Get a statement",
  description:
    "The totals with `fee_lines` (processing fees by pricing model, the monthly fees, the ACH activity fees and the dispute fees), `card_brands` (count and volume), `daily_totals`, the month's `payouts` and `disputes`.",
  security: security.isv,
  middleware: [withPaymentScope] as const,
  request: { params: z.object({ merchantId: merchantParam, statementId: statementParam }) },
  responses: {
    200: {
      description: "The statement",
      ...jsonContent(statementDetailSchema, {
        ...example,
        fee_lines: [
          {
            kind: "processing",
            model: "flat_rate",
            description: "Flat rate, Visa, Mastercard, Discover credit",
            count: 412,
            amount: 56321,
          },
        ],
        card_brands: [{ brand: "visa", count: 412, volume: 1845230 }],
        daily_totals: [{ date: "2026-10-01", charges: 14, volume: 61200, refunds: 0, returns: 0, fees: 1890 }],
        payouts: [
          {
            id: "po_3nV8qK2xW6mZ1rT7pL4yBd",
            settlement_id: "stl_6pQ2nW8xK4mZ1rT7vL3yBc",
            created_at: "2026-10-02T00:00:00.412Z",
            amount: 59310,
            status: "paid",
            arrival_date: "2026-10-05",
            failure_code: null,
          },
        ],
        disputes: [
          {
            id: "dp_7hT2nW9xK4mZ1rQ6vL3yBc",
            charge_id: "ch_8nW3kQ5zX1mP7vL2rT6yBd",
            created_at: "2026-10-09T00:00:02.114Z",
            reason: "product_not_received",
            status: "won",
            amount: 4200,
            fee: 1500,
            opened_in_period: true,
            won_in_period: true,
          },
        ],
      }),
    },
    ...commonErrors,
  },
});

// GET /v1/statements/{merchantId}/download/{statementId}: the branded PDF, or CSV
const downloadStatementPdfCsvRoute = createRoute({
  method: "get",
  path: "/v1/statements/{merchantId}/download/{statementId}",
  tags: ["Statements"],
  summary: "Download a statement (PDF or CSV)",
  description:
    "`application/pdf` by default, branded with the ISV's display name and colors, in the merchant's language: the totals, fees by pricing model, card brands, daily totals and every charge and refund, with page numbers. `?format=csv`: every charge and refund as CSV (`text/csv`; cells a spreadsheet would run as formulas are neutralized).",
  security: security.isv,
  middleware: [withPaymentScope] as const,
  request: {
    params: z.object({ merchantId: merchantParam, statementId: statementParam }),
    query: z.object({ format: z.enum(["pdf", "csv"]).optional() }),
  },
  responses: {
    200: {
      description: "The statement",
      content: {
        "application/pdf": { schema: z.string().meta({ format: "binary" }) },
        "text/csv": { schema: z.string() },
      },
    },
    ...commonErrors,
  },
});

export function statementRoutes(app: OpenAPIHono<AppEnv>) {
  app.openapi(listMerchantStatementsRoute, async (c) => {
    const merchant = await merchantOf(c, c.req.valid("param").merchantId);
    const { rows, hasMore } = await listStatements(c.get("db"), merchant.id, c.req.valid("query"));
    return c.json(toList(rows.map(serializeStatement), hasMore, `/v1/statements/${merchant.id}`), 200);
  });

  app.openapi(getStatementRoute, async (c) => {
    const { merchantId, statementId } = c.req.valid("param");
    const merchant = await merchantOf(c, merchantId);
    return c.json(serializeStatementDetail(await findStatement(c.get("db"), merchant.id, statementId)), 200);
  });

  app.openapi(downloadStatementPdfCsvRoute, async (c) => {
    const scope = c.get("scope");
    const { merchantId, statementId } = c.req.valid("param");
    const file = await downloadStatement(
      c.get("db"),
      scope,
      merchantId,
      statementId,
      c.req.valid("query").format ?? "pdf",
    );
    return c.body(file.body, 200, {
      "Content-Type": file.contentType,
      "Content-Disposition": `attachment; filename="${file.filename}"`,
      "Cache-Control": "no-store",
    });
  });
}
