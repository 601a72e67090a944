import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import { z } from "zod";

import { hostedBaseOf } from "../../domain/accounts/hosted-base";
import { cancelPaymentRequest } from "../../domain/payments/cancel-payment-request";
import { createPaymentRequest } from "../../domain/payments/create-payment-request";
import { findPaymentRequest } from "../../domain/payments/find-payment-request";
import { listPaymentRequests } from "../../domain/payments/list-payment-requests";
import { unlockPaymentRequest } from "../../domain/payments/unlock-payment-request";
import {
  exampleInvoiceRequest,
  exampleManualRequest,
  examplePaymentRequest,
  exampleScanToPayRequest,
  exampleTerminalRequest,
} from "../../schemas/examples/payment-requests";
import { listEnvelope, listQuerySchema, toList } from "../../schemas/list";
import {
  invoiceRequestSchema,
  manualRequestSchema,
  paymentRequestListQuery,
  paymentRequestSchema,
  scanToPayRequestSchema,
  terminalRequestSchema,
} from "../../schemas/payment-requests";
import { serializePaymentRequest } from "../../serializers/payment-request";
import type { AppEnv } from "../context";
import { withPaymentScope } from "../middleware/payment-scope";
import { commonErrors, conflict409, forbidden403, jsonContent, security } from "../openapi";
import type { StreamCaps } from "../stream-caps";
import { paymentPageRoutes, paymentRequestIdParam } from "./payment-pages";

// Payment requests (docs/reference.md section 10): one route constant per operation, registered in
// the order the document lists them.

const idParam = paymentRequestIdParam;

type PaymentType = "TERMINAL" | "SCAN_TO_PAY" | "INVOICE" | "MANUAL";

/** The four ways to ask for a payment share their answer, guard and errors. */
const createRequestRoute = <B extends z.ZodType>(
  path: string,
  type: PaymentType,
  text: { summary: string; description: string },
  body: B,
  example: unknown,
) =>
  createRoute({
    method: "post",
    path,
    tags: ["Payments"],
    summary: text.summary,
    description: text.description,
    security: [...security.isv],
    middleware: [withPaymentScope] as const,
    request: { body: { required: true, ...jsonContent(body, example) } },
    responses: {
      200: {
        description: "The payment request",
        ...jsonContent(paymentRequestSchema, { ...examplePaymentRequest, payment_type: type }),
      },
      ...commonErrors,
      403: forbidden403,
      ...(type === "TERMINAL"
        ? { 409: { ...conflict409, description: "The terminal already holds an open request (`terminal_busy`)" } }
        : {}),
    },
  });

// POST /v1/terminal: ask the merchant's terminal to take a payment
const terminalRoute = createRequestRoute(
  "/v1/terminal",
  "TERMINAL",
  {
    summary: "Take a payment on a terminal",
    description:
      "`terminal_id` must be one of the merchant's provisioned terminals (`payment.terminal_id`), else 400 `terminal_unknown`; a terminal holds one open request at a time (409 `terminal_busy`). An unpaid request expires after `deadline_seconds` (30-900, default 300). `debit: false` declines debit cards with `debit_not_allowed`. `payment_asset_url` is a live progress page; if the terminal declines or times out, the customer can pay the same request on their phone from there.",
  },
  terminalRequestSchema,
  exampleTerminalRequest,
);

// POST /v1/scan_to_pay: a QR code the customer scans to pay
const scanToPayRoute = createRequestRoute(
  "/v1/scan_to_pay",
  "SCAN_TO_PAY",
  {
    summary: "Create a scan-to-pay QR code",
    description:
      "Send `amount` or `items` (then `amount`, if sent, must equal their sum). `taxPercent` sets `tax` (half up). `payment_asset_url` is a PNG QR code (`?format=svg` for SVG) of `pay_url`, the hosted page where the customer pays.",
  },
  scanToPayRequestSchema,
  exampleScanToPayRequest,
);

// POST /v1/invoice: an invoice sent by e-mail and/or text message
const invoiceRoute = createRequestRoute(
  "/v1/invoice",
  "INVOICE",
  {
    summary: "Send an invoice",
    description:
      "`send_via` (or `sendVia`, the reference's spelling: either, or both alike) is required and authoritative: `email` needs `email_address`, `text` needs `phone_number` (E.164), `both` needs both; `send_sms`/`send_email` that contradict it are a 400. The invoice page is `payment_asset_url`; `sent_at` is when it was sent, `viewed_at` when the customer first opened it.",
  },
  invoiceRequestSchema,
  exampleInvoiceRequest,
);

// POST /v1/manual: a virtual terminal page where staff type the customer's card
const manualRoute = createRequestRoute(
  "/v1/manual",
  "MANUAL",
  {
    summary: "Create a manual (card-entry) payment",
    description:
      "A MANUAL request: `payment_asset_url` is the hosted card-entry page (a virtual terminal for the merchant's staff). Same amount rules as scan-to-pay; `description` is optional.",
  },
  manualRequestSchema,
  exampleManualRequest,
);

// GET /v1/payment_requests: list payment requests, newest first
const listRoute = createRoute({
  method: "get",
  path: "/v1/payment_requests",
  tags: ["Payments"],
  summary: "List payment requests",
  security: security.isv,
  middleware: [withPaymentScope] as const,
  request: { query: listQuerySchema.extend(paymentRequestListQuery.shape) },
  responses: {
    200: {
      description: "A page of payment requests",
      ...jsonContent(listEnvelope(paymentRequestSchema, "PaymentRequestList"), {
        object: "list",
        data: [examplePaymentRequest],
        has_more: false,
        url: "/v1/payment_requests",
      }),
    },
    ...commonErrors,
  },
});

// GET /v1/payment_requests/{id}: one payment request
const getRoute = createRoute({
  method: "get",
  path: "/v1/payment_requests/{payment_request_id}",
  tags: ["Payments"],
  summary: "Get a payment request",
  security: security.isv,
  middleware: [withPaymentScope] as const,
  request: { params: idParam },
  responses: {
    200: { description: "The payment request", ...jsonContent(paymentRequestSchema, examplePaymentRequest) },
    ...commonErrors,
  },
});

// POST /v1/payment_requests/{id}/cancel: cancel a pending request
const cancelRoute = createRoute({
  method: "post",
  path: "/v1/payment_requests/{payment_request_id}/cancel",
  tags: ["Payments"],
  summary: "Cancel a payment request",
  description:
    "PENDING → CANCELED (`payment_request.canceled`); 409 `invalid_state` once PAID, CANCELED or EXPIRED, and 409 `payment_in_progress` while a card is being authorized.",
  security: security.isv,
  middleware: [withPaymentScope] as const,
  request: { params: idParam },
  responses: {
    200: {
      description: "The canceled request",
      ...jsonContent(paymentRequestSchema, {
        ...examplePaymentRequest,
        status: "CANCELED",
        canceled_at: "2026-11-22T18:05:00.000Z",
      }),
    },
    ...commonErrors,
    409: conflict409,
  },
});

// POST /v1/payment_requests/{id}/unlock: a request locked by too many declines can be paid again
const unlockRoute = createRoute({
  method: "post",
  path: "/v1/payment_requests/{payment_request_id}/unlock",
  tags: ["Payments"],
  summary: "Unlock a payment request locked after too many declines",
  description:
    "A request takes at most 5 declined attempts (card testing); the fifth locks it: `locked_at` is set, `payment_request.locked` is sent, and paying answers 409 `payment_request_locked` while the request stays `PENDING`. Unlocking (the merchant or its ISV, after checking with the customer) clears `locked_at`, sets `declined_attempts` back to 0 and sends `payment_request.unlocked`; 409 `invalid_state` when the request is not locked or no longer PENDING. The per-card and per-address limits still apply.",
  security: security.isv,
  middleware: [withPaymentScope] as const,
  request: { params: idParam },
  responses: {
    200: { description: "The unlocked request", ...jsonContent(paymentRequestSchema, examplePaymentRequest) },
    ...commonErrors,
    409: conflict409,
  },
});

export function paymentRoutes(app: OpenAPIHono<AppEnv>, caps: StreamCaps) {
  app.openapi(terminalRoute, async (c) => {
    const { row, base } = await createPaymentRequest(c.get("db"), c.get("principal"), {
      ...c.req.valid("json"),
      type: "TERMINAL",
    });
    return c.json(serializePaymentRequest(row, base), 200);
  });
  app.openapi(scanToPayRoute, async (c) => {
    const { row, base } = await createPaymentRequest(c.get("db"), c.get("principal"), {
      ...c.req.valid("json"),
      type: "SCAN_TO_PAY",
    });
    return c.json(serializePaymentRequest(row, base), 200);
  });
  app.openapi(invoiceRoute, async (c) => {
    const { row, base } = await createPaymentRequest(c.get("db"), c.get("principal"), {
      ...c.req.valid("json"),
      type: "INVOICE",
    });
    return c.json(serializePaymentRequest(row, base), 200);
  });
  app.openapi(manualRoute, async (c) => {
    const { row, base } = await createPaymentRequest(c.get("db"), c.get("principal"), {
      ...c.req.valid("json"),
      type: "MANUAL",
    });
    return c.json(serializePaymentRequest(row, base), 200);
  });

  app.openapi(listRoute, async (c) => {
    const scope = c.get("scope");
    const { rows, hasMore } = await listPaymentRequests(c.get("db"), scope, c.req.valid("query"));
    const base = await hostedBaseOf(c.get("db"), scope.isvAccountId);
    return c.json(
      toList(
        rows.map((r) => serializePaymentRequest(r, base)),
        hasMore,
        "/v1/payment_requests",
      ),
      200,
    );
  });

  app.openapi(getRoute, async (c) => {
    const row = await findPaymentRequest(c.get("db"), c.get("scope"), c.req.valid("param").payment_request_id);
    return c.json(serializePaymentRequest(row, await hostedBaseOf(c.get("db"), row.isvAccountId)), 200);
  });

  app.openapi(cancelRoute, async (c) => {
    const { row, base } = await cancelPaymentRequest(
      c.get("db"),
      c.get("scope"),
      c.req.valid("param").payment_request_id,
    );
    return c.json(serializePaymentRequest(row, base), 200);
  });

  app.openapi(unlockRoute, async (c) => {
    const { row, base } = await unlockPaymentRequest(
      c.get("db"),
      c.get("scope"),
      c.req.valid("param").payment_request_id,
    );
    return c.json(serializePaymentRequest(row, base), 200);
  });
  // What the hosted pay pages call, public: registered last, as the document lists them.
  paymentPageRoutes(app, caps);
}
