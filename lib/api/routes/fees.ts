import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";

import { previewFee } from "../../domain/fees/preview-fee";
import { feePreviewRequestSchema, feePreviewSchema } from "../../schemas/fees";
import type { AppEnv } from "../context";
import { withPaymentScope } from "../middleware/payment-scope";
import { commonErrors, jsonContent, security } from "../openapi";

// POST /v1/fees/preview: what a charge would cost the merchant, without charging
const previewFeeChargeRoute = createRoute({
  method: "post",
  path: "/v1/fees/preview",
  tags: ["Charges"],
  summary: "Preview the fee of a charge",
  description:
    "The same computation as a real charge's `fee`, `net` and `fee_details`, from the merchant's pricing (its first card model in `capabilities.types`, its options over the ISV's defaults; with `payment_method: ach`, its ACH options). `model` and `fee` are null when the merchant has no such pricing.",
  security: security.isv,
  middleware: [withPaymentScope] as const,
  request: {
    body: {
      required: true,
      ...jsonContent(feePreviewRequestSchema, {
        merchant_id: "mer_4kZ2qV9sT1pLmN8xRw3YbC",
        amount: 10000,
        card_entry_method: "MANUAL",
        card_brand: "visa",
        funding: "credit",
      }),
    },
  },
  responses: {
    200: {
      description: "The fee",
      ...jsonContent(feePreviewSchema, {
        object: "fee_preview",
        merchant_id: "mer_4kZ2qV9sT1pLmN8xRw3YbC",
        amount: 10000,
        currency: "usd",
        model: "flat_rate",
        fee: 320,
        net: 9680,
        fee_details: [
          {
            type: "processing",
            model: "flat_rate",
            rate_bps: 290,
            fixed: 30,
            amount: 320,
            description: "Flat rate, Visa, Mastercard, Discover credit",
          },
        ],
      }),
    },
    ...commonErrors,
  },
});

export function feeRoutes(app: OpenAPIHono<AppEnv>) {
  app.openapi(previewFeeChargeRoute, async (c) => {
    return c.json(await previewFee(c.get("db"), c.get("scope"), c.req.valid("json")), 200);
  });
}
