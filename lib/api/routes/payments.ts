import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import { streamSSE } from "hono/streaming";
import { z } from "zod";

import { hostedBaseOf } from "../../domain/accounts/hosted-base";
import { cancelPaymentRequest } from "../../domain/payments/cancel-payment-request";
import { createPaymentRequest } from "../../domain/payments/create-payment-request";
import { findPaymentRequest, findPublicPaymentRequest } from "../../domain/payments/find-payment-request";
import { followPaymentRequest } from "../../domain/payments/follow-payment-request";
import { listPaymentRequests } from "../../domain/payments/list-payment-requests";
import { payWithToken } from "../../domain/payments/pay-with-token";
import { unlockPaymentRequest } from "../../domain/payments/unlock-payment-request";
import { RECONNECT_HINT_MS, shutdownSignal } from "../../ops/shutdown";
import { renderQrCode } from "../../payments/qr";
import { SANDBOX_DISPUTED_CARD, sandboxTestCards } from "../../processors/sandbox";
import {
  exampleInvoiceRequest,
  exampleManualRequest,
  examplePaymentRequest,
  examplePayRequest,
  examplePayResult,
  exampleScanToPayRequest,
  exampleTerminalRequest,
} from "../../schemas/examples/payment-requests";
import { listEnvelope, listQuerySchema, toList } from "../../schemas/list";
import {
  invoiceRequestSchema,
  manualRequestSchema,
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
import { getConnInfoAddress } from "../middleware/conn-info";
import { withPaymentScope } from "../middleware/payment-scope";
import { commonErrors, conflict409, forbidden403, jsonContent, pathId, security } from "../openapi";
import type { StreamCaps } from "../stream-caps";

// Payment requests (docs/reference.md section 10): one route constant per operation, registered in
// the order the document lists them.

/** The sandbox's declining test cards, as the pay operation's description lists them (from the processor's own list). */
const sandboxCardsText = Object.entries(sandboxTestCards)
  .map(([number, reason]) => `${number} (\`${reason}\`)`)
  .join(", ");

const idParam = z.object({ payment_request_id: pathId("payment_request_id", "pr_3hV8mK1qZ7xN2pL5wR9tYb") });

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
      "`sendVia` is authoritative: `email` needs `email_address`, `text` needs `phone_number` (E.164), `both` needs both; `send_sms`/`send_email` that contradict it are a 400. The invoice page is `payment_asset_url`; `sent_at` is when it was sent, `viewed_at` when the customer first opened it.",
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

// POST /v1/payment_requests/{id}/pay: the hosted pages pay with a card token (public)
const payRoute = createRoute({
  method: "post",
  path: "/v1/payment_requests/{payment_request_id}/pay",
  tags: ["Payments"],
  summary: "Pay a payment request with a card token",
  description:
    "Sandbox test cards: any Luhn-valid number approves, except " +
    sandboxCardsText +
    `; ${SANDBOX_DISPUTED_CARD} approves, then is disputed (\`fraudulent\`) when its charge settles (see Disputes)` +
    "; 4000056655665556 is a Visa debit card (declined with `debit_not_allowed` on a terminal request with `debit: false`); 5555555555554444, 378282246310005 and 6011111111111117 approve as Mastercard, Amex and Discover.\n\nCalled by the hosted payment pages; needs no credentials (the request id is unguessable and the token is single-use and bound to the merchant). A decline answers 200 with `outcome: declined` and the request still PENDING for another try. The anonymous answer names only the reasons that help an honest customer (`incorrect_cvc`, `expired_card`, `debit_not_allowed`, `processing_error`); every other decline reads `card_declined` here, while the charge (`GET /v1/charges/{id}`), its events and the ISV keep the precise reason. The answer carries no customer e-mail or phone.\n\nCard testing: the request locks at its 5th declined attempt (409 `payment_request_locked` after, `payment_request.locked`; see unlock); a card declined 10 times in 24 hours, or 20 declines from one client address in an hour (across the ISV's requests), are refused before the processor sees the card (429 `too_many_declines` with `Retry-After`). A `processing_error` never counts. 409 `invalid_state` when the request is no longer payable, 409 `payment_in_progress` while another attempt is being authorized.",
  security: [],
  request: {
    params: idParam,
    body: {
      required: true,
      ...jsonContent(payRequestSchema, examplePayRequest),
    },
  },
  responses: {
    200: {
      description: "The attempt and the request after it",
      ...jsonContent(payResultSchema, examplePayResult),
    },
    ...commonErrors,
    403: forbidden403,
    409: conflict409,
  },
});

// GET /v1/payment_requests/{id}/qr: the scan-to-pay QR code of the hosted pay page (public)
const qrRoute = createRoute({
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
});

// GET /v1/payment_requests/{id}/stream: Server-Sent Events of the request's status (public)
const streamRoute = createRoute({
  method: "get",
  path: "/v1/payment_requests/{payment_request_id}/stream",
  tags: ["Payments"],
  summary: "Follow a payment request live (Server-Sent Events)",
  description:
    "An `event: payment_request` message with `{ id, status, charge_id, last_failure_reason }` now and at every change, until the request is final. Woken by PostgreSQL NOTIFY at each change, so it works across instances sharing one database; every stream of one request on one instance shares one database read per change. Public, like the pay page. Each instance holds at most 20 streams per request, 50 per client address and 5,000 in all: past a cap, 429 `rate_limited` with `Retry-After` (the hosted pages then poll).",
  security: [],
  request: { params: idParam },
  responses: {
    200: { description: "An event stream", content: { "text/event-stream": { schema: z.string() } } },
    400: commonErrors[400],
    404: commonErrors[404],
    429: commonErrors[429],
  },
});

export function paymentRoutes(app: OpenAPIHono<AppEnv>, caps: StreamCaps) {
  app.openapi(terminalRoute, async (c) => {
    const { row, base } = await createPaymentRequest(c.var.db, c.var.principal, {
      ...c.req.valid("json"),
      type: "TERMINAL",
    });
    return c.json(serializePaymentRequest(row, base), 200);
  });
  app.openapi(scanToPayRoute, async (c) => {
    const { row, base } = await createPaymentRequest(c.var.db, c.var.principal, {
      ...c.req.valid("json"),
      type: "SCAN_TO_PAY",
    });
    return c.json(serializePaymentRequest(row, base), 200);
  });
  app.openapi(invoiceRoute, async (c) => {
    const { row, base } = await createPaymentRequest(c.var.db, c.var.principal, {
      ...c.req.valid("json"),
      type: "INVOICE",
    });
    return c.json(serializePaymentRequest(row, base), 200);
  });
  app.openapi(manualRoute, async (c) => {
    const { row, base } = await createPaymentRequest(c.var.db, c.var.principal, {
      ...c.req.valid("json"),
      type: "MANUAL",
    });
    return c.json(serializePaymentRequest(row, base), 200);
  });

  app.openapi(listRoute, async (c) => {
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
  });

  app.openapi(getRoute, async (c) => {
    const row = await findPaymentRequest(c.var.db, c.var.scope, c.req.valid("param").payment_request_id);
    return c.json(serializePaymentRequest(row, await hostedBaseOf(c.var.db, row.isvAccountId)), 200);
  });

  app.openapi(cancelRoute, async (c) => {
    const { row, base } = await cancelPaymentRequest(c.var.db, c.var.scope, c.req.valid("param").payment_request_id);
    return c.json(serializePaymentRequest(row, base), 200);
  });

  app.openapi(unlockRoute, async (c) => {
    const { row, base } = await unlockPaymentRequest(c.var.db, c.var.scope, c.req.valid("param").payment_request_id);
    return c.json(serializePaymentRequest(row, base), 200);
  });

  app.openapi(payRoute, async (c) => {
    const result = await payWithToken(c.var.db, c.req.valid("param").payment_request_id, c.req.valid("json"), {
      clientAddress: getConnInfoAddress(c),
    });
    return c.json(serializePayResult(result), 200);
  });

  app.openapi(qrRoute, async (c) => {
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
  });

  app.openapi(streamRoute, async (c) => {
    const id = c.req.valid("param").payment_request_id;
    // The caps first: a refused stream costs no database read.
    const release = caps.acquire(id, getConnInfoAddress(c));
    try {
      await findPublicPaymentRequest(c.var.db, id);
    } catch (error) {
      release();
      throw error;
    }
    const res = streamSSE(c, async (stream) => {
      const aborted = new AbortController();
      stream.onAbort(() => aborted.abort());
      // A restart (SIGTERM) ends the stream with a hint to reconnect, to whichever instance answers.
      const restarting = () => aborted.abort();
      shutdownSignal.addEventListener("abort", restarting, { once: true });
      try {
        for await (const state of followPaymentRequest(c.var.handle, id, aborted.signal)) {
          await stream.writeSSE({ event: "payment_request", data: JSON.stringify(state), id: String(Date.now()) });
        }
        if (shutdownSignal.aborted) await stream.writeSSE({ event: "reconnect", data: "{}", retry: RECONNECT_HINT_MS });
      } finally {
        shutdownSignal.removeEventListener("abort", restarting);
        release();
      }
    });
    // Never kept by a cache or a proxy (streamSSE itself says no-cache).
    res.headers.set("Cache-Control", "no-store");
    return res;
  });
}
