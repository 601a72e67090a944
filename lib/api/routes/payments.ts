import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import { streamSSE } from "hono/streaming";
import { z } from "zod";

import { hostedBaseOf } from "../../domain/accounts/hosted-base";
import { cancelPaymentRequest } from "../../domain/payments/cancel-payment-request";
import { createPaymentRequest, type CreatePaymentRequestInput } from "../../domain/payments/create-payment-request";
import { findPaymentRequest, findPublicPaymentRequest } from "../../domain/payments/find-payment-request";
import { followPaymentRequest } from "../../domain/payments/follow-payment-request";
import { listPaymentRequests } from "../../domain/payments/list-payment-requests";
import { payWithToken } from "../../domain/payments/pay-payment-request";
import { renderQrCode } from "../../payments/qr";
import { sandboxTestCards } from "../../processors/sandbox";
import { listEnvelope, listQuerySchema, toList } from "../../schemas/list";
import {
  invoiceRequestSchema,
  manualRequestSchema,
  type PaymentRequestJson,
  paymentRequestListQuery,
  paymentRequestSchema,
  payRequestSchema,
  payResultSchema,
  scanToPayRequestSchema,
  terminalRequestSchema,
} from "../../schemas/payment-requests";
import { serializePayResult } from "../../serializers/pay-result";
import { payPageUrl, serializePaymentRequest } from "../../serializers/payment-request";
import type { AppEnv } from "../context";
import { withPaymentScope } from "../middleware/payment-scope";
import { commonErrors, conflict409, forbidden403, jsonContent, security } from "../openapi";

/** The sandbox's declining test cards, as the pay operation's description lists them (from the processor's own list). */
const sandboxCardsText = Object.entries(sandboxTestCards)
  .map(([number, reason]) => `${number} (\`${reason}\`)`)
  .join(", ");

const idParam = z.object({
  payment_request_id: z
    .string()
    .max(64)
    .meta({ param: { name: "payment_request_id", in: "path" }, example: "pr_3hV8mK1qZ7xN2pL5wR9tYb" }),
});

const examplePaymentRequest: PaymentRequestJson = {
  object: "payment_request",
  id: "pr_3hV8mK1qZ7xN2pL5wR9tYb",
  merchant_id: "mer_4kZ2qV9sT1pLmN8xRw3YbC",
  payment_type: "SCAN_TO_PAY",
  status: "PENDING",
  currency: "usd",
  amount: 1150,
  tax: 95,
  tip: 0,
  items: [{ name: "Pad thai", quantity: 1, unit_price: 1150 }],
  subtotal: 1150,
  tax_percent: "8.25",
  total: 1245,
  payment_asset_url: "https://onboarding.example.com/v1/payment_requests/pr_3hV8mK1qZ7xN2pL5wR9tYb/qr",
  pay_url: "https://onboarding.example.com/pay/pr_3hV8mK1qZ7xN2pL5wR9tYb",
  charge_id: null,
  created_at: "2026-11-22T18:00:00.000Z",
  expires_at: "2026-11-29T18:00:00.000Z",
  paid_at: null,
  canceled_at: null,
};

export function paymentRoutes(app: OpenAPIHono<AppEnv>) {
  const create = (
    path: string,
    type: CreatePaymentRequestInput["type"],
    summary: string,
    description: string,
    body: z.ZodType,
    example: unknown,
  ) =>
    app.openapi(
      createRoute({
        method: "post",
        path,
        tags: ["Payments"],
        summary,
        description,
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
      }),
      async (c) => {
        const input = { ...(c.req.valid("json" as never) as object), type } as CreatePaymentRequestInput;
        const { row, base } = await createPaymentRequest(c.var.db, c.var.principal, input);
        return c.json(serializePaymentRequest(row, base), 200);
      },
    );

  // POST /v1/terminal: ask the merchant's terminal to take a payment
  create(
    "/v1/terminal",
    "TERMINAL",
    "Take a payment on a terminal",
    "`terminal_id` must be one of the merchant's provisioned terminals (`payment.terminal_id`), else 400 `terminal_unknown`; a terminal holds one open request at a time (409 `terminal_busy`). An unpaid request expires after `deadline_seconds` (30-900, default 300). `debit: false` declines debit cards with `debit_not_allowed`. `payment_asset_url` is a live progress page; if the terminal declines or times out, the customer can pay the same request on their phone from there.",
    terminalRequestSchema,
    {
      merchant_id: "mer_4kZ2qV9sT1pLmN8xRw3YbC",
      terminal_id: "tml_7Qm2xP0aZk3LwN5sVb8RtY",
      amount: 2500,
      tax: 206,
      tip: 300,
      signature_required: false,
      debit: true,
    },
  );
  // POST /v1/scan_to_pay: a QR code the customer scans to pay
  create(
    "/v1/scan_to_pay",
    "SCAN_TO_PAY",
    "Create a scan-to-pay QR code",
    "Send `amount` or `items` (then `amount`, if sent, must equal their sum). `taxPercent` sets `tax` (half up). `payment_asset_url` is a PNG QR code (`?format=svg` for SVG) of `pay_url`, the hosted page where the customer pays.",
    scanToPayRequestSchema,
    {
      merchant_id: "mer_4kZ2qV9sT1pLmN8xRw3YbC",
      items: [{ name: "Pad thai", quantity: 1, unit_price: 1150 }],
      taxPercent: "8.25",
      tip: 0,
    },
  );
  // POST /v1/invoice: an invoice sent by e-mail and/or text message
  create(
    "/v1/invoice",
    "INVOICE",
    "Send an invoice",
    "`sendVia` is authoritative: `email` needs `email_address`, `text` needs `phone_number` (E.164), `both` needs both; `send_sms`/`send_email` that contradict it are a 400. The invoice page is `payment_asset_url`; `sent_at` is when it was sent, `viewed_at` when the customer first opened it.",
    invoiceRequestSchema,
    {
      merchant_id: "mer_4kZ2qV9sT1pLmN8xRw3YbC",
      email_address: "customer@example.com",
      sendVia: "email",
      send_email: true,
      send_sms: false,
      items: [{ name: "Catering for 12", quantity: 1, unit_price: 24000 }],
      taxPercent: "8.25",
      tip: 0,
    },
  );
  // POST /v1/manual: a virtual terminal page where staff type the customer's card
  create(
    "/v1/manual",
    "MANUAL",
    "Create a manual (card-entry) payment",
    "A MANUAL request: `payment_asset_url` is the hosted card-entry page (a virtual terminal for the merchant's staff). Same amount rules as scan-to-pay; `description` is optional.",
    manualRequestSchema,
    { merchant_id: "mer_4kZ2qV9sT1pLmN8xRw3YbC", amount: 4200, tax: 0, tip: 0, description: "Phone order #1042" },
  );

  // GET /v1/payment_requests: list payment requests, newest first
  app.openapi(
    createRoute({
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
    }),
    async (c) => {
      const { scope } = c.var;
      const { rows, hasMore } = await listPaymentRequests(c.var.db, scope, c.req.valid("query"));
      const base = await hostedBaseOf(c.var.db, scope.isvAccountId);
      return c.json(
        toList(
          rows.map((r) => serializePaymentRequest(r, base)),
          hasMore,
          "/v1/payment_requests",
        ),
        200,
      );
    },
  );

  // GET /v1/payment_requests/{id}: one payment request
  app.openapi(
    createRoute({
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
    }),
    async (c) => {
      const { scope } = c.var;
      const row = await findPaymentRequest(c.var.db, scope, c.req.valid("param").payment_request_id);
      return c.json(serializePaymentRequest(row, await hostedBaseOf(c.var.db, row.isvAccountId)), 200);
    },
  );

  // POST /v1/payment_requests/{id}/cancel: cancel a pending request
  app.openapi(
    createRoute({
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
    }),
    async (c) => {
      const { scope } = c.var;
      const { row, base } = await cancelPaymentRequest(c.var.db, scope, c.req.valid("param").payment_request_id);
      return c.json(serializePaymentRequest(row, base), 200);
    },
  );

  // POST /v1/payment_requests/{id}/pay: the hosted pages pay with a card token (public)
  app.openapi(
    createRoute({
      method: "post",
      path: "/v1/payment_requests/{payment_request_id}/pay",
      tags: ["Payments"],
      summary: "Pay a payment request with a card token",
      description:
        "Sandbox test cards: any Luhn-valid number approves, except " +
        sandboxCardsText +
        "; 4000056655665556 is a Visa debit card (declined with `debit_not_allowed` on a terminal request with `debit: false`); 5555555555554444, 378282246310005 and 6011111111111117 approve as Mastercard, Amex and Discover.\n\nCalled by the hosted payment pages; needs no credentials (the request id is unguessable and the token is single-use and bound to the merchant). A decline answers 200 with `outcome: declined`, the FAILED charge's `failure_reason`, and the request still PENDING for another try. 409 `invalid_state` when the request is no longer payable, 409 `payment_in_progress` while another attempt is being authorized.",
      security: [],
      request: {
        params: idParam,
        body: {
          required: true,
          ...jsonContent(payRequestSchema, { token: "tok_9fK2mQ7xLp4RzW1nVb6YtC", email: "customer@example.com" }),
        },
      },
      responses: {
        200: {
          description: "The attempt and the request after it",
          ...jsonContent(payResultSchema, {
            object: "payment_result",
            outcome: "paid",
            payment_request: {
              ...examplePaymentRequest,
              status: "PAID",
              charge_id: "ch_8nW3kQ5zX1mP7vL2rT6yBd",
              paid_at: "2026-11-22T18:02:00.000Z",
            },
            charge: {
              id: "ch_8nW3kQ5zX1mP7vL2rT6yBd",
              status: "AUTHORIZED",
              amount: 1245,
              card_brand: "visa",
              card_last_4: "4242",
              failure_reason: null,
              receipt_number: "20261122-8NW3KQ5Z",
              created_at: 1795370520000,
            },
          }),
        },
        ...commonErrors,
        403: forbidden403,
        409: conflict409,
      },
    }),
    async (c) => {
      const result = await payWithToken(c.var.db, c.req.valid("param").payment_request_id, c.req.valid("json"));
      return c.json(serializePayResult(result), 200);
    },
  );

  // GET /v1/payment_requests/{id}/qr: the scan-to-pay QR code of the hosted pay page (public)
  app.openapi(
    createRoute({
      method: "get",
      path: "/v1/payment_requests/{payment_request_id}/qr",
      tags: ["Payments"],
      summary: "The QR code of a payment request's pay page",
      description:
        "A PNG (default) or, with `?format=svg`, an SVG QR code whose content is `pay_url`. Public, like the pay page.",
      security: [],
      request: { params: idParam, query: z.object({ format: z.enum(["png", "svg"]).optional() }) },
      responses: {
        200: {
          description: "The QR code",
          content: {
            "image/png": { schema: z.string().meta({ format: "binary" }) },
            "image/svg+xml": { schema: z.string() },
          },
        },
        400: commonErrors[400],
        404: commonErrors[404],
      },
    }),
    async (c) => {
      const row = await findPublicPaymentRequest(c.var.db, c.req.valid("param").payment_request_id);
      const qr = await renderQrCode(
        payPageUrl(await hostedBaseOf(c.var.db, row.isvAccountId), row.id),
        c.req.valid("query").format ?? "png",
      );
      return c.body(qr.body, 200, {
        "Cache-Control": "public, max-age=3600",
        "X-Content-Type-Options": "nosniff",
        "Content-Type": qr.contentType,
      });
    },
  );

  // GET /v1/payment_requests/{id}/stream: Server-Sent Events of the request's status (public)
  app.openapi(
    createRoute({
      method: "get",
      path: "/v1/payment_requests/{payment_request_id}/stream",
      tags: ["Payments"],
      summary: "Follow a payment request live (Server-Sent Events)",
      description:
        "An `event: payment_request` message with `{ id, status, charge_id, last_failure_reason }` now and at every change, until the request is final. Woken by PostgreSQL NOTIFY at each change, so it works across instances sharing one database. Public, like the pay page.",
      security: [],
      request: { params: idParam },
      responses: {
        200: { description: "An event stream", content: { "text/event-stream": { schema: z.string() } } },
        400: commonErrors[400],
        404: commonErrors[404],
      },
    }),
    async (c) => {
      const id = c.req.valid("param").payment_request_id;
      await findPublicPaymentRequest(c.var.db, id);
      c.header("Cache-Control", "no-store");
      return streamSSE(c, async (stream) => {
        const aborted = new AbortController();
        stream.onAbort(() => aborted.abort());
        for await (const state of followPaymentRequest(c.var.handle, id, aborted.signal)) {
          await stream.writeSSE({ event: "payment_request", data: JSON.stringify(state), id: String(Date.now()) });
        }
      });
    },
  );
}
