import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv } from "../context";
import { commonErrors, jsonContent, security } from "../openapi";
import { feePreviewRequestSchema, feePreviewSchema } from "../../schemas/payments";
import { findScopedMerchant, paymentScope } from "../../domain/payments/scope";
import { feeForAchCharge, feeForCardCharge } from "../../domain/fees/merchant-pricing";
import { invalidFields } from "../../errors";
import { paymentsCaller } from "./payments";

export function feeRoutes(app: OpenAPIHono<AppEnv>) {
  // POST /v1/fees/preview: what a charge would cost the merchant, without charging
  app.openapi(
    createRoute({
      method: "post",
      path: "/v1/fees/preview",
      tags: ["Charges"],
      summary: "Preview the fee of a charge",
      description:
        "The same computation as a real charge's `fee`, `net` and `fee_details`, from the merchant's pricing (its first card model in `capabilities.types`, its options over the ISV's defaults; with `payment_method: ach`, its ACH options). `model` and `fee` are null when the merchant has no such pricing.",
      security: security.isv,
      middleware: [paymentsCaller] as const,
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
              { type: "processing", model: "flat_rate", rate_bps: 290, fixed: 30, amount: 320, description: "Flat rate, Visa, Mastercard, Discover credit" },
            ],
          }),
        },
        ...commonErrors,
      },
    }),
    async (c) => {
      const body = c.req.valid("json");
      const merchant = await findScopedMerchant(c.var.db, await paymentScope(c.var.db, c.var.principal!), body.merchant_id);
      let priced;
      if (body.payment_method === "ach") priced = feeForAchCharge(merchant, body.amount);
      else {
        const missing = (["card_entry_method", "card_brand"] as const).filter((k) => body[k] === undefined);
        if (missing.length)
          throw invalidFields(missing.map((param) => ({ param, code: "parameter_missing", message: `${param} is required to price a card payment` })));
        priced = feeForCardCharge(merchant, {
          amount: body.amount,
          brand: body.card_brand!.toLowerCase(),
          funding: body.funding ?? "credit",
          entryMethod: body.card_entry_method!,
          keyedWithPostalCode: body.keyed_with_postal_code ?? false,
        });
      }
      return c.json(
        {
          object: "fee_preview" as const,
          merchant_id: merchant.id,
          amount: body.amount,
          currency: "usd" as const,
          model: priced?.model ?? null,
          fee: priced?.fee ?? null,
          net: priced ? body.amount - priced.fee : null,
          fee_details: priced?.lines ?? [],
        },
        200,
      );
    },
  );
}
