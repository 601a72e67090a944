import type { z } from "zod";

import type { DbOrTx } from "../../db/types";
import { invalidFields } from "../../errors";
import { type feePreviewRequestSchema, type feePreviewSchema } from "../../schemas/fees";
import { findScopedMerchant, type Scope } from "../scope";
import { feeForAchCharge, feeForCardCharge } from "./merchant-pricing";

type FeePreviewInput = z.infer<typeof feePreviewRequestSchema>;
type FeePreviewJson = z.infer<typeof feePreviewSchema>;

/**
 * POST /v1/fees/preview: what a charge would cost the merchant, by the same computation as a real
 * charge's fee (ACH options for `payment_method: ach`; a card needs its entry method and brand).
 */
export async function previewFee(db: DbOrTx, scope: Scope, body: FeePreviewInput): Promise<FeePreviewJson> {
  const merchant = await findScopedMerchant(db, scope, body.merchant_id);
  let priced;
  if (body.payment_method === "ach") priced = feeForAchCharge(merchant, body.amount);
  else {
    const { card_brand: brand, card_entry_method: entryMethod } = body;
    const missing = (["card_entry_method", "card_brand"] as const).filter((k) => body[k] === undefined);
    if (brand === undefined || entryMethod === undefined)
      throw invalidFields(
        missing.map((param) => ({
          param,
          code: "parameter_missing",
          message: `${param} is required to price a card payment`,
        })),
      );
    priced = feeForCardCharge(merchant, {
      amount: body.amount,
      brand: brand.toLowerCase(),
      funding: body.funding ?? "credit",
      entryMethod,
      keyedWithPostalCode: body.keyed_with_postal_code ?? false,
    });
  }
  return {
    object: "fee_preview",
    merchant_id: merchant.id,
    amount: body.amount,
    currency: "usd",
    model: priced?.model ?? null,
    fee: priced?.fee ?? null,
    net: priced ? body.amount - priced.fee : null,
    fee_details: priced?.lines ?? [],
  };
}
