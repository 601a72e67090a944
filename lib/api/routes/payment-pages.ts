import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import { streamSSE } from "hono/streaming";
import { z } from "zod";

import { hostedBaseOf } from "../../domain/accounts/hosted-base";
import { findPublicPaymentRequest } from "../../domain/payments/find-payment-request";
import { followPaymentRequest } from "../../domain/payments/follow-payment-request";
import { payWithToken } from "../../domain/payments/pay-with-token";
import { RECONNECT_HINT_MS, shutdownSignal } from "../../ops/shutdown";
import { SANDBOX_DISPUTED_CARD, sandboxTestCards } from "../../processors/sandbox";
import { examplePayRequest, examplePayResult } from "../../schemas/examples/payment-requests";
import { payRequestSchema, payResultSchema } from "../../schemas/payment-requests";
import { serializePayResult } from "../../serializers/pay-result";
import { payPageUrl } from "../../serializers/payment-request";
import type { AppEnv } from "../context";
import { getConnInfoAddress } from "../middleware/conn-info";
import { commonErrors, conflict409, forbidden403, jsonContent, pathId } from "../openapi";
import { qrAnswer, qrQuery, qrResponses } from "../qr-answer";
import type { StreamCaps } from "../stream-caps";

// The payment request's public operations, called by the hosted pay pages without credentials (the
// request id is unguessable): pay with a token, its QR code, its status live. Registered by
// ./payments.ts after the ISV's operations, in the order the document lists them.

/** The sandbox's declining test cards, as the pay operation's description lists them (from the processor's own list). */
const sandboxCardsText = Object.entries(sandboxTestCards)
  .map(([number, reason]) => `${number} (\`${reason}\`)`)
  .join(", ");

export const paymentRequestIdParam = z.object({
  payment_request_id: pathId("payment_request_id", "pr_3hV8mK1qZ7xN2pL5wR9tYb"),
});
const idParam = paymentRequestIdParam;

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
  request: { params: idParam, query: qrQuery },
  responses: qrResponses,
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

export function paymentPageRoutes(app: OpenAPIHono<AppEnv>, caps: StreamCaps) {
  app.openapi(payRoute, async (c) => {
    const result = await payWithToken(c.get("db"), c.req.valid("param").payment_request_id, c.req.valid("json"), {
      clientAddress: getConnInfoAddress(c),
    });
    return c.json(serializePayResult(result), 200);
  });

  app.openapi(qrRoute, async (c) => {
    const row = await findPublicPaymentRequest(c.get("db"), c.req.valid("param").payment_request_id);
    return qrAnswer(
      c,
      payPageUrl(await hostedBaseOf(c.get("db"), row.isvAccountId), row.id),
      c.req.valid("query").format,
    );
  });

  app.openapi(streamRoute, async (c) => {
    const id = c.req.valid("param").payment_request_id;
    // The caps first: a refused stream costs no database read.
    const release = caps.acquire(id, getConnInfoAddress(c));
    try {
      await findPublicPaymentRequest(c.get("db"), id);
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
        for await (const state of followPaymentRequest(c.get("handle"), id, aborted.signal)) {
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
