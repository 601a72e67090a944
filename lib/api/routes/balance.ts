import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import { z } from "zod";

import { getBalance } from "../../domain/balance/get-balance";
import { findBalanceTransaction, listBalanceTransactions } from "../../domain/balance/list-balance-transactions";
import {
  balanceQuerySchema,
  balanceSchema,
  balanceTransactionListQuerySchema,
  balanceTransactionSchema,
} from "../../schemas/balance";
import { listEnvelope, listQuerySchema, toList } from "../../schemas/list";
import {
  type BalanceJson,
  type BalanceTransactionJson,
  serializeBalance,
  serializeBalanceTransaction,
} from "../../serializers/balance-transaction";
import type { AppEnv } from "../context";
import { withPaymentScope } from "../middleware/payment-scope";
import { commonErrors, jsonContent, pathId, security } from "../openapi";

export const exampleBalance: BalanceJson = {
  object: "balance",
  merchant_id: "mer_4kZ2qV9sT1pLmN8xRw3YbC",
  available: 0,
  pending: 9_680,
  reserved: 0,
  currency: "usd",
};

export const exampleBalanceTransaction: BalanceTransactionJson = {
  object: "balance_transaction",
  id: "txn_5rT2nW8xK4mZ1qV7pL3yBd",
  merchant_id: "mer_4kZ2qV9sT1pLmN8xRw3YbC",
  type: "charge",
  source: "ch_7kQ2nV8xW4mZ1rT6pL3yBc",
  amount: 10_000,
  fee: 320,
  net: 9_680,
  currency: "usd",
  status: "pending",
  available_on: "2026-11-30",
  settlement_id: null,
  payout_id: null,
  description: "Payment by visa •••• 4242",
  created_at: 1795392000418,
};

// GET /v1/balance: a merchant's balance
const getBalanceRoute = createRoute({
  method: "get",
  path: "/v1/balance",
  tags: ["Balance"],
  summary: "Get a merchant's balance",
  description:
    "Read from the ledger: `pending` (payments less fees, refunds, returns and disputes not yet settled), `available` (settled, not yet paid out; negative when the merchant owes, taken from its next settlement) and `reserved`, in cents. An ISV names `merchant_id`; a merchant's own key reads its own.",
  security: security.isv,
  middleware: [withPaymentScope] as const,
  request: { query: balanceQuerySchema },
  responses: {
    200: { description: "The balance", ...jsonContent(balanceSchema, exampleBalance) },
    ...commonErrors,
  },
});

// GET /v1/balance_transactions: the ledger's lines, newest first
const listBalanceTransactionsRoute = createRoute({
  method: "get",
  path: "/v1/balance_transactions",
  tags: ["Balance"],
  summary: "List balance transactions",
  description:
    "Every movement of a merchant's money, one line each (`charge`, `refund`, `ach_return`, `ach_return_reversal`, `dispute`, `dispute_fee`, `dispute_won`, `payout`, `payout_failure`, ...), newest first. Filters `merchant_id`, `payout` (a payout's lines, which sum to its amount, and the payout itself), `type`, `source`, `created[gte|lte]` (milliseconds), `available_on[gte|lte]` (YYYY-MM-DD).",
  security: security.isv,
  middleware: [withPaymentScope] as const,
  request: { query: listQuerySchema.extend(balanceTransactionListQuerySchema.shape) },
  responses: {
    200: {
      description: "A page of balance transactions",
      ...jsonContent(listEnvelope(balanceTransactionSchema, "BalanceTransactionList"), {
        object: "list",
        data: [exampleBalanceTransaction],
        has_more: false,
        url: "/v1/balance_transactions",
      }),
    },
    ...commonErrors,
  },
});

// GET /v1/balance_transactions/{id}: one balance transaction
const getBalanceTransactionRoute = createRoute({
  method: "get",
  path: "/v1/balance_transactions/{balance_transaction_id}",
  tags: ["Balance"],
  summary: "Get a balance transaction",
  security: security.isv,
  middleware: [withPaymentScope] as const,
  request: {
    params: z.object({
      balance_transaction_id: pathId("balance_transaction_id", exampleBalanceTransaction.id),
    }),
  },
  responses: {
    200: {
      description: "The balance transaction",
      ...jsonContent(balanceTransactionSchema, exampleBalanceTransaction),
    },
    ...commonErrors,
  },
});

export function balanceRoutes(app: OpenAPIHono<AppEnv>) {
  app.openapi(getBalanceRoute, async (c) => {
    const { merchantId, balance } = await getBalance(c.get("db"), c.get("scope"), c.req.valid("query").merchant_id);
    return c.json(serializeBalance(merchantId, balance), 200);
  });

  app.openapi(listBalanceTransactionsRoute, async (c) => {
    const { rows, hasMore } = await listBalanceTransactions(c.get("db"), c.get("scope"), c.req.valid("query"));
    return c.json(toList(rows.map(serializeBalanceTransaction), hasMore, "/v1/balance_transactions"), 200);
  });

  app.openapi(getBalanceTransactionRoute, async (c) => {
    const row = await findBalanceTransaction(c.get("db"), c.get("scope"), c.req.valid("param").balance_transaction_id);
    return c.json(serializeBalanceTransaction(row), 200);
  });
}
