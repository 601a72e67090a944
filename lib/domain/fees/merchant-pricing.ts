import type { MerchantRow } from "../../db/schema";
import type { CardEntryMethod } from "../../schemas/payment-values";
import { isCardModel } from "../../schemas/vocabulary";
import { achFee, cardClassOf, cardFee, type FeeResult, isCardPresent } from "./compute-fee";

type Options = Record<string, string | undefined>;
type Capabilities = { types?: string[]; options?: Record<string, Options | undefined> };

/**
 * The merchant's pricing (docs/reference.md section 13): its `capabilities.types` (else its ISV's default
 * types), and for each model the default options with the merchant's overrides on top.
 */
export function merchantPricing(merchant: Pick<MerchantRow, "application" | "defaultCapabilities">) {
  const own = (merchant.application.capabilities ?? {}) as Capabilities;
  const defaults = merchant.defaultCapabilities as Capabilities;
  const types = own.types ?? defaults.types ?? [];
  const options = (model: string): Options => ({
    ...(defaults.options?.[model] ?? {}),
    ...(own.options?.[model] ?? {}),
  });
  /** The first card model in the merchant's types prices its card charges. */
  const cardModel = types.find(isCardModel) ?? null;
  return { types, options, cardModel };
}

/** Whether the merchant takes bank payments: `ach` in its capability types (its own, else its ISV's). */
export const takesAch = (merchant: Pick<MerchantRow, "application" | "defaultCapabilities">) =>
  merchantPricing(merchant).types.includes("ach");

export type FeeFacts = {
  amount: number;
  brand: string | null;
  funding: string | null;
  entryMethod: CardEntryMethod;
  keyedWithPostalCode: boolean;
};

/** The fee of a card charge for this merchant; null when it has no card pricing. */
export function feeForCardCharge(
  merchant: Pick<MerchantRow, "application" | "defaultCapabilities">,
  facts: FeeFacts,
): FeeResult | null {
  const pricing = merchantPricing(merchant);
  if (!pricing.cardModel) return null;
  return cardFee(pricing.cardModel, pricing.options(pricing.cardModel), {
    amount: facts.amount,
    cardClass: cardClassOf(facts.brand, facts.funding),
    present: isCardPresent(facts.entryMethod),
    keyedWithPostalCode: facts.keyedWithPostalCode,
  });
}

/** The fee of an ACH charge (A × txn_fee_percent + txn_fee_fixed); null when the merchant has no ACH pricing. */
export function feeForAchCharge(
  merchant: Pick<MerchantRow, "application" | "defaultCapabilities">,
  amount: number,
): FeeResult | null {
  const pricing = merchantPricing(merchant);
  if (!pricing.types.includes("ach")) return null;
  return achFee(pricing.options("ach"), amount);
}
