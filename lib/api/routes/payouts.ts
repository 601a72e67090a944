import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import { z } from "zod";

import { advancePayout } from "../../domain/payouts/advance-payout";
import { findPayout } from "../../domain/payouts/find-payout";
import { createInstantPayout, instantQuote } from "../../domain/payouts/instant";
import { listPayouts } from "../../domain/payouts/list-payouts";
import { createManualPayout } from "../../domain/payouts/manual-payout";
import { AppError } from "../../errors";
import { instantPayoutRails, instantQuoteSchema } from "../../schemas/instant-payouts";
import { listEnvelope, listQuerySchema, toList } from "../../schemas/list";
import { payoutListQuerySchema, payoutMethods, payoutSchema } from "../../schemas/payouts";
import { type PayoutJson, serializePayout } from "../../serializers/payout";
import type { AppEnv } from "../context";
import { withPaymentScope } from "../middleware/payment-scope";
import { commonErrors, conflict409, jsonContent, pathId, security } from "../openapi";

export const examplePayout: PayoutJson = {
  object: "payout",
  id: "po_3nV8qK2xW6mZ1rT7pL4yBd",
  recipient: "merchant",
  merchant_id: "mer_4kZ2qV9sT1pLmN8xRw3YbC",
  settlement_id: "stl_6pQ2nW8xK4mZ1rT7vL3yBc",
  residual_id: null,
  replaces: null,
  automatic: true,
  method: "standard",
  fee: null,
  rail: null,
  card: null,
  amount: 2825,
  currency: "usd",
  status: "in_transit",
  held_reason: null,
  failure_code: null,
  arrival_date: "2026-11-27",
  bank_account: { last4: "6789", bank_name: "First Bank" },
  created_at: 1795392000418,
};

const idParam = z.object({ payout_id: pathId("payout_id", examplePayout.id) });

// GET /v1/payouts: list payouts, newest first
const listPayoutsRoute = createRoute({
  method: "get",
  path: "/v1/payouts",
  tags: ["Payouts"],
  summary: "List payouts",
  description:
    "The merchant's payout schedule (`payout_schedule`: daily after each settlement, weekly, monthly or manual) makes a payout of its available funds on its days, and `POST /v1/payouts` one now: pending → in_transit (arriving on `arrival_date`, `delay_days` business days later) → paid | failed; `held` while it waits (`held_reason`). Filters `merchant_id`, `settlement_id`, `status`. `recipient=account`: the ISV's own payouts instead (its residuals, the guide: /docs/guide#section-19; the ISV's key or JWT only), filtered by `status`.",
  security: security.isv,
  middleware: [withPaymentScope] as const,
  request: { query: listQuerySchema.extend(payoutListQuerySchema.shape) },
  responses: {
    200: {
      description: "A page of payouts",
      ...jsonContent(listEnvelope(payoutSchema, "PayoutList"), {
        object: "list",
        data: [examplePayout],
        has_more: false,
        url: "/v1/payouts",
      }),
    },
    ...commonErrors,
  },
});

// GET /v1/payouts/{id}: one payout
const getPayoutRoute = createRoute({
  method: "get",
  path: "/v1/payouts/{payout_id}",
  tags: ["Payouts"],
  summary: "Get a payout",
  security: security.isv,
  middleware: [withPaymentScope] as const,
  request: { params: idParam },
  responses: {
    200: { description: "The payout", ...jsonContent(payoutSchema, examplePayout) },
    ...commonErrors,
  },
});

// POST /v1/payouts: a manual payout of available funds
const createPayoutRoute = createRoute({
  method: "post",
  path: "/v1/payouts",
  tags: ["Payouts"],
  summary: "Pay out available funds now",
  description:
    "A payout of the merchant's available funds now, whatever its `payout_schedule`: `amount` cents, or everything available when it is left out. 400 `insufficient_funds` above what is available (the message says how much is); 409 `payouts_held` while the merchant's payouts wait (a bank account being verified, payouts turned off or frozen; the message says which); 403 `merchant_not_approved`. It is `automatic: false`: it has no lines of its own, and its `payout` transaction is a line of the next automatic payout. Two at once never pay out more than is available. A merchant's own key may leave out `merchant_id`.",
  security: security.isv,
  middleware: [withPaymentScope] as const,
  request: {
    body: {
      required: true,
      ...jsonContent(
        z
          .strictObject({
            merchant_id: z.string().max(64).optional(),
            amount: z.number().int().min(1).max(100_000_000).optional(),
            method: z.enum(payoutMethods).optional().meta({
              description:
                "`standard` (default: ACH, arriving `delay_days` business days after it is sent) or `instant` (RTP or FedNow to the bank account, or a push to the merchant's debit card, paid in minutes, for a fee: `GET /v1/payouts/instant_quote`; where the ISV enables it)",
            }),
            rail: z.enum(instantPayoutRails).optional().meta({
              description:
                "`method: instant` only: `rtp` or `push_to_card` (default: `rtp` when the bank is reachable, else the debit card)",
            }),
          })
          .meta({ id: "CreatePayoutRequest" }),
        { merchant_id: "mer_4kZ2qV9sT1pLmN8xRw3YbC", amount: 5_000 },
      ),
    },
  },
  responses: {
    200: {
      description: "The payout, pending (or held)",
      ...jsonContent(payoutSchema, { ...examplePayout, automatic: false, settlement_id: null, status: "pending" }),
    },
    409: conflict409,
    ...commonErrors,
  },
});

// GET /v1/payouts/instant_quote: what an instant payout would be now
const instantQuoteRoute = createRoute({
  method: "get",
  path: "/v1/payouts/instant_quote",
  tags: ["Payouts"],
  summary: "Quote an instant payout",
  description:
    "What an instant payout of the merchant would be now (the guide: /docs/guide#section-20): the most it can be (`available`: what the merchant may draw less the fee, within today's limit), the `fee` for `amount` (or for `available`), the `rail`, what is left of today's limit, and when none can be made, `unavailable_reason` in words (instant payouts not enabled by the ISV, a bank the rail cannot reach, payouts held, nothing available, the limit reached). A merchant's own key may leave out `merchant_id`.",
  security: security.isv,
  middleware: [withPaymentScope] as const,
  request: {
    query: z.object({
      merchant_id: z.string().max(64).optional(),
      amount: z.coerce.number().int().min(1).max(100_000_000).optional(),
      rail: z.enum(instantPayoutRails).optional().meta({
        description:
          "Quote this rail (`rtp` or `push_to_card`); default: `rtp` when the bank is reachable, else the card",
      }),
    }),
  },
  responses: {
    200: {
      description: "The quote",
      ...jsonContent(instantQuoteSchema, {
        object: "instant_payout_quote",
        merchant_id: examplePayout.merchant_id,
        available: 48_019,
        amount: 48_019,
        fee: 720,
        fee_bps: 150,
        rail: "rtp",
        rails: ["rtp", "push_to_card"],
        payout_card: {
          object: "payout_card",
          id: "pcard_7Hq2LmP9sK4tWz1xNb3VcR",
          merchant_id: examplePayout.merchant_id,
          brand: "visa",
          last4: "5556",
          exp_month: 12,
          exp_year: 2030,
          funding: "debit",
          usable_from: "2026-11-25",
          status: "active",
          created_at: 1_763_900_000_000,
        },
        limit_remaining_today: 1_000_000,
        unavailable_reason: null,
      }),
    },
    ...commonErrors,
  },
});

// POST /v1/test_helpers/payouts/{id}/advance: the sandbox's bank, one step now
const advancePayoutRoute = createRoute({
  method: "post",
  path: "/v1/test_helpers/payouts/{payout_id}/advance",
  tags: ["Test helpers (sandbox)"],
  summary: "Move a payout one state on",
  description:
    "Sandbox only. Does now what the worker does in its time: a `pending` payout is sent (`in_transit`, with its `arrival_date`); an `in_transit` one gets the bank's answer: `paid`, or `failed` with `account_closed` for the account number 000555555550 (its merchant's later payouts are then held and a new bank account is asked for). 409 for a payout that is held, paid or failed.",
  security: security.isv,
  middleware: [withPaymentScope] as const,
  request: { params: idParam },
  responses: {
    200: { description: "The payout, moved", ...jsonContent(payoutSchema, examplePayout) },
    409: conflict409,
    ...commonErrors,
  },
});

export function payoutRoutes(app: OpenAPIHono<AppEnv>, options: { sandbox: boolean }) {
  app.openapi(listPayoutsRoute, async (c) => {
    const query = c.req.valid("query");
    // The ISV's own payouts are its key's or JWT's alone: a merchant's own key may not list them.
    if (query.recipient === "account" && c.get("scope").merchantId)
      throw new AppError(
        "account_type_not_allowed",
        "The ISV's own payouts are read with the ISV's key, not a merchant's",
      );
    const { rows, hasMore } = await listPayouts(c.get("db"), c.get("scope"), query);
    return c.json(toList(rows.map(serializePayout), hasMore, "/v1/payouts"), 200);
  });

  app.openapi(createPayoutRoute, async (c) => {
    const body = c.req.valid("json");
    const payout =
      body.method === "instant"
        ? await createInstantPayout(c.get("db"), c.get("scope"), body)
        : await createManualPayout(c.get("db"), c.get("scope"), body);
    return c.json(serializePayout(payout), 200);
  });

  app.openapi(instantQuoteRoute, async (c) => {
    return c.json(await instantQuote(c.get("db"), c.get("scope"), c.req.valid("query")), 200);
  });

  app.openapi(getPayoutRoute, async (c) => {
    const found = await findPayout(c.get("db"), c.get("scope"), c.req.valid("param").payout_id);
    return c.json(serializePayout(found), 200);
  });

  if (options.sandbox)
    app.openapi(advancePayoutRoute, async (c) => {
      const found = await findPayout(c.get("db"), c.get("scope"), c.req.valid("param").payout_id);
      const moved = await advancePayout(c.get("db"), found.id, { strict: true });
      return c.json(serializePayout(moved ?? found), 200);
    });
}
