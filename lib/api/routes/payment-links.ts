import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import type { Context } from "hono";
import { z } from "zod";

import { renderChooseAmountPage, renderLinkOffPage } from "../../branding/payment-link-page";
import { getAccount } from "../../domain/accounts/get-account";
import { hostedBaseOf } from "../../domain/accounts/hosted-base";
import { brandOf } from "../../domain/accounts/isv-facts";
import {
  createPaymentLink,
  findPaymentLink,
  listPaymentLinks,
  publicPaymentLink,
  updatePaymentLink,
  visitPaymentLink,
} from "../../domain/payment-links/payment-links";
import { AppError } from "../../errors";
import { negotiateLocale } from "../../i18n/locales";
import { limitStore } from "../../limits";
import { typedDollarsToCents } from "../../money";
import { buildCsp } from "../../net/csp";
import { listEnvelope, listQuerySchema, toList } from "../../schemas/list";
import {
  createPaymentLinkSchema,
  paymentLinkListQuery,
  paymentLinkSchema,
  updatePaymentLinkSchema,
} from "../../schemas/payment-links";
import { serializePaymentLink } from "../../serializers/payment-link";
import { payPageUrl } from "../../serializers/payment-request";
import type { AppEnv } from "../context";
import { getConnInfoAddress } from "../middleware/conn-info";
import { withPaymentScope } from "../middleware/payment-scope";
import { commonErrors, conflict409, jsonContent, pathId, security } from "../openapi";
import { qrAnswer, qrQuery, qrResponses } from "../qr-answer";

// Payment links (docs/reference.md section 21): the API, the QR code, and the link's URL itself.

const exampleLink = {
  object: "payment_link" as const,
  id: "plink_6vQ2kR8mT4xP9nL3wZ7yBd",
  merchant_id: "mer_4kZ2qV9sT1pLmN8xRw3YbC",
  url: "https://pay.example.com/l/plink_6vQ2kR8mT4xP9nL3wZ7yBd",
  qr_code_url: "https://pay.example.com/v1/payment_links/plink_6vQ2kR8mT4xP9nL3wZ7yBd/qr",
  active: true,
  amount: 2500,
  items: null,
  customer_chooses_amount: null,
  description: "Drop-in yoga class",
  max_uses: null,
  paid_count: 0,
  expires_at: null,
  metadata: {},
  created_at: 1_795_370_520_000,
};
const linkId = z.object({ payment_link_id: pathId("payment_link_id", exampleLink.id) });
const linkOk = (description: string, example: object = exampleLink) => ({
  description,
  ...jsonContent(paymentLinkSchema, example),
});

const createLinkRoute = createRoute({
  method: "post",
  path: "/v1/payment_links",
  tags: ["Payment links"],
  summary: "Create a payment link",
  description:
    "A reusable link (`plink_...`) to pay the merchant: one of `amount`, `items` or `customer_chooses_amount` (the customer types it, between `min` and `max`). Each visit of `url` makes a payment request (SCAN_TO_PAY, `payment_link_id` set, payable for an hour) and redirects (303) to its pay page. `max_uses` payments, then it turns itself off; none after `expires_at`.",
  security: security.isv,
  middleware: [withPaymentScope] as const,
  request: {
    body: {
      required: true,
      ...jsonContent(createPaymentLinkSchema, {
        merchant_id: exampleLink.merchant_id,
        amount: 2500,
        description: exampleLink.description,
      }),
    },
  },
  responses: { 200: linkOk("The link"), ...commonErrors },
});

const listLinksRoute = createRoute({
  method: "get",
  path: "/v1/payment_links",
  tags: ["Payment links"],
  summary: "List payment links",
  description: "Newest first; filters `merchant_id`, `active`.",
  security: security.isv,
  middleware: [withPaymentScope] as const,
  request: { query: listQuerySchema.extend(paymentLinkListQuery.shape) },
  responses: {
    200: {
      description: "A page of links",
      ...jsonContent(listEnvelope(paymentLinkSchema, "PaymentLinkList"), {
        object: "list",
        data: [exampleLink],
        has_more: false,
        url: "/v1/payment_links",
      }),
    },
    ...commonErrors,
  },
});

const getLinkRoute = createRoute({
  method: "get",
  path: "/v1/payment_links/{payment_link_id}",
  tags: ["Payment links"],
  summary: "Get a payment link",
  description: "With `paid_count`, the payments made through it.",
  security: security.isv,
  middleware: [withPaymentScope] as const,
  request: { params: linkId },
  responses: { 200: linkOk("The link"), ...commonErrors },
});

const updateLinkRoute = createRoute({
  method: "post",
  path: "/v1/payment_links/{payment_link_id}",
  tags: ["Payment links"],
  summary: "Update a payment link",
  description:
    "`active: false` turns it off: a visit then shows that it no longer takes payments (requests opened before may still be paid). 409 `invalid_state` to turn on a link that took its `max_uses`.",
  security: security.isv,
  middleware: [withPaymentScope] as const,
  request: { params: linkId, body: { required: true, ...jsonContent(updatePaymentLinkSchema, { active: false }) } },
  responses: { 200: linkOk("The link", { ...exampleLink, active: false }), 409: conflict409, ...commonErrors },
});

const linkQrRoute = createRoute({
  method: "get",
  path: "/v1/payment_links/{payment_link_id}/qr",
  tags: ["Payment links"],
  summary: "The QR code of a payment link",
  description: "A PNG (default) or, with `?format=svg`, an SVG QR code whose content is the link's `url`. Public.",
  security: [],
  request: { params: linkId, query: qrQuery },
  responses: qrResponses,
});

/** The amount form posts back to the link itself; nothing else runs on these pages. */
const linkPageCsp = buildCsp({
  "default-src": "'none'",
  "style-src": "'unsafe-inline'",
  "img-src": ["https:", "http:", "data:", "'self'"],
  "base-uri": "'none'",
  "form-action": "'self'",
  "frame-ancestors": "'none'",
});
/** Requests a visitor's address may open through payment links in a minute. */
const VISITS_PER_ADDRESS_PER_MINUTE = 30;

export function paymentLinkRoutes(app: OpenAPIHono<AppEnv>) {
  app.openapi(createLinkRoute, async (c) => {
    const row = await createPaymentLink(c.get("db"), c.get("scope"), c.req.valid("json"));
    return c.json(serializePaymentLink(row, await hostedBaseOf(c.get("db"), row.isvAccountId)), 200);
  });
  app.openapi(listLinksRoute, async (c) => {
    const { rows, hasMore } = await listPaymentLinks(c.get("db"), c.get("scope"), c.req.valid("query"));
    const base = await hostedBaseOf(c.get("db"), c.get("scope").isvAccountId);
    return c.json(
      toList(
        rows.map((r) => serializePaymentLink(r, base)),
        hasMore,
        "/v1/payment_links",
      ),
      200,
    );
  });
  app.openapi(getLinkRoute, async (c) => {
    const row = await findPaymentLink(c.get("db"), c.get("scope"), c.req.valid("param").payment_link_id);
    return c.json(serializePaymentLink(row, await hostedBaseOf(c.get("db"), row.isvAccountId)), 200);
  });
  app.openapi(updateLinkRoute, async (c) => {
    const row = await updatePaymentLink(
      c.get("db"),
      c.get("scope"),
      c.req.valid("param").payment_link_id,
      c.req.valid("json"),
    );
    return c.json(serializePaymentLink(row, await hostedBaseOf(c.get("db"), row.isvAccountId)), 200);
  });
  app.openapi(linkQrRoute, async (c) => {
    const id = c.req.valid("param").payment_link_id;
    const row = await publicPaymentLink(c.get("db"), id);
    return qrAnswer(c, `${await hostedBaseOf(c.get("db"), row.isvAccountId)}/l/${row.id}`, c.req.valid("query").format);
  });

  // The link's URL: GET opens a payment request (or shows the amount form), POST sends the amount.
  const visits = limitStore().limit("payment-link-visits", VISITS_PER_ADDRESS_PER_MINUTE, 60);
  const visit = async (c: Context<AppEnv>, typed?: string) => {
    c.header("Cache-Control", "no-store");
    c.header("Referrer-Policy", "no-referrer");
    c.header("Content-Security-Policy", linkPageCsp);
    const locale = negotiateLocale(c.req.header("accept-language"));
    const id = c.req.param("id") ?? "";
    const chosen = typed === undefined ? undefined : (typedDollarsToCents(typed) ?? -1);
    const wait = await visits.blocked(getConnInfoAddress(c));
    if (wait !== null)
      throw new AppError("rate_limited", "Too many payments opened from this address; try again in a minute", {
        retryAfterSeconds: wait,
      });
    const result = await visitPaymentLink(c.get("db"), id, chosen);
    if (result.kind === "pay") {
      await visits.hit(getConnInfoAddress(c));
      return c.redirect(
        payPageUrl(await hostedBaseOf(c.get("db"), result.request.isvAccountId), result.request.id),
        303,
      );
    }
    const isv = result.isvAccountId ? await getAccount(c.get("db"), result.isvAccountId) : null;
    const branding = isv ? brandOf(isv) : undefined;
    if (result.kind === "unavailable")
      return c.html(
        renderLinkOffPage({ locale, branding, business: result.business, unknown: result.reason === "unknown" }),
        result.reason === "unknown" ? 404 : 410,
      );
    return c.html(
      renderChooseAmountPage({
        locale,
        branding,
        business: result.business || (branding?.display_name ?? ""),
        description: result.link.description,
        min: result.link.minAmount ?? 0,
        max: result.link.maxAmount ?? 0,
        error: result.error === "out_of_range",
        typed,
      }),
      result.error ? 400 : 200,
    );
  };
  app.get("/l/:id", (c) => visit(c));
  app.post("/l/:id", async (c) => {
    const form = await c.req.parseBody().catch(() => ({}) as Record<string, unknown>);
    return visit(c, typeof form.amount === "string" ? form.amount.slice(0, 32) : "");
  });
}
