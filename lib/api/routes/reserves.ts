import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import { z } from "zod";

import { createReserve, listReserves, releaseReserve } from "../../domain/reserves/reserves";
import { AppError } from "../../errors";
import { createReserveSchema, reserveSchema } from "../../schemas/reserves";
import { type ReserveJson } from "../../serializers/reserve";
import type { AppEnv } from "../context";
import { withPaymentScope } from "../middleware/payment-scope";
import { commonErrors, conflict409, forbidden403, jsonContent, pathId, security } from "../openapi";

export const exampleReserve: ReserveJson = {
  object: "reserve",
  id: "rsv_5kP2mW9xQ3nZ7rT1vL8yBd",
  merchant_id: "mer_4kZ2qV9sT1pLmN8xRw3YbC",
  type: "rolling",
  percent: 10,
  hold_days: 90,
  amount: null,
  release_on: null,
  reason: "Refunds are above 10 % of your sales this month",
  status: "active",
  held: 12_000,
  next_release: { amount: 1_500, date: "2027-03-31" },
  created_by: "isv",
  created_at: 1795392000418,
  released_at: null,
};

const merchantParam = z.object({ merchant_id: pathId("merchant_id", exampleReserve.merchant_id) });
const reserveParam = merchantParam.extend({ reserve_id: pathId("reserve_id", exampleReserve.id) });

const createReserveRoute = createRoute({
  method: "post",
  path: "/v1/merchants/{merchant_id}/reserves",
  tags: ["Reserves"],
  summary: "Hold back part of a merchant's money",
  description:
    "`rolling`: `percent` of each settlement's net is held for `hold_days` days (each day's hold comes back on its own date, with the payout of that day); `fixed`: `amount` cents held from what is available now (the rest from the next settlements) until released, or until `release_on`. `reason` is shown to the merchant in its home. The next payout is lower by exactly what is held: the holds are its lines (`reserve_hold`, `reserve_release` balance transactions), and the merchant's balance shows them as `reserved`. The ISV's key or dashboard only; `reserve.created`.",
  security: security.isv,
  middleware: [withPaymentScope] as const,
  request: {
    params: merchantParam,
    body: {
      required: true,
      ...jsonContent(createReserveSchema, {
        type: "rolling",
        percent: 10,
        hold_days: 90,
        reason: "Refunds are above 10 % of your sales this month",
      }),
    },
  },
  responses: {
    200: { description: "The reserve", ...jsonContent(reserveSchema, exampleReserve) },
    403: forbidden403,
    ...commonErrors,
  },
});

const listReservesRoute = createRoute({
  method: "get",
  path: "/v1/merchants/{merchant_id}/reserves",
  tags: ["Reserves"],
  summary: "List a merchant's reserves",
  description: "Active and released, newest first, each with what it holds now and its next release.",
  security: security.isv,
  middleware: [withPaymentScope] as const,
  request: { params: merchantParam },
  responses: {
    200: {
      description: "The merchant's reserves",
      ...jsonContent(
        z.object({ object: z.literal("list"), data: z.array(reserveSchema), has_more: z.boolean(), url: z.string() }),
        {
          object: "list",
          data: [exampleReserve],
          has_more: false,
          url: "/v1/merchants/mer_4kZ2qV9sT1pLmN8xRw3YbC/reserves",
        },
      ),
    },
    ...commonErrors,
  },
});

const releaseReserveRoute = createRoute({
  method: "post",
  path: "/v1/merchants/{merchant_id}/reserves/{reserve_id}/release",
  tags: ["Reserves"],
  summary: "Release a reserve",
  description:
    "Ends the reserve now: everything it holds is available again and leaves with the merchant's next payout. 409 `invalid_state` when it was released already. `reserve.released`.",
  security: security.isv,
  middleware: [withPaymentScope] as const,
  request: { params: reserveParam },
  responses: {
    200: {
      description: "The reserve, released",
      ...jsonContent(reserveSchema, {
        ...exampleReserve,
        status: "released",
        held: 0,
        next_release: null,
        released_at: 1795478400000,
      }),
    },
    409: conflict409,
    ...commonErrors,
  },
});

/** Reserves are the ISV's to put and lift: a merchant's own key may read its own, not change them. */
function assertIsv(scope: { merchantId?: string }) {
  if (scope.merchantId)
    throw new AppError("account_type_not_allowed", "Reserves are created and released with the ISV's key");
}

export function reserveRoutes(app: OpenAPIHono<AppEnv>) {
  app.openapi(createReserveRoute, async (c) => {
    assertIsv(c.get("scope"));
    const reserve = await createReserve(
      c.get("db"),
      c.get("scope"),
      c.req.valid("param").merchant_id,
      c.req.valid("json"),
      "isv",
    );
    return c.json(reserve, 200);
  });

  app.openapi(listReservesRoute, async (c) => {
    const { merchant_id } = c.req.valid("param");
    const data = await listReserves(c.get("db"), c.get("scope"), merchant_id);
    return c.json(
      { object: "list" as const, data, has_more: false, url: `/v1/merchants/${merchant_id}/reserves` },
      200,
    );
  });

  app.openapi(releaseReserveRoute, async (c) => {
    assertIsv(c.get("scope"));
    const { merchant_id, reserve_id } = c.req.valid("param");
    return c.json(await releaseReserve(c.get("db"), c.get("scope"), merchant_id, reserve_id), 200);
  });
}
