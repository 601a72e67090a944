import type { MerchantRow } from "../../db/schema";
import type { CardEntryMethod } from "../../schemas/payment-values";
import { isCardModel } from "../../schemas/vocabulary";
import { achFee, type CardClass, cardClassOf, cardFee, type FeeResult, isCardPresent } from "./compute-fee";

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

/**
 * The most this merchant's processing fee can be on a payment of `amount`, whatever pays it: any card
 * class, read (`present`) or typed with or without a postal code, or a bank debit when it takes them
 * (`achPossible`). What a platform fee may not eat into (docs/reference.md section 19).
 */
export function highestFee(
  merchant: Pick<MerchantRow, "application" | "defaultCapabilities">,
  payment: { amount: number; present: boolean; achPossible: boolean },
): number {
  const pricing = merchantPricing(merchant);
  const fees = [0];
  const classes: CardClass[] = ["vmd_credit", "vmd_debit", "amex"];
  if (pricing.cardModel)
    for (const cardClass of classes)
      for (const keyedWithPostalCode of [false, true])
        fees.push(
          cardFee(pricing.cardModel, pricing.options(pricing.cardModel), {
            amount: payment.amount,
            cardClass,
            present: payment.present,
            keyedWithPostalCode,
          }).fee,
        );
  if (payment.achPossible && pricing.types.includes("ach"))
    fees.push(achFee(pricing.options("ach"), payment.amount).fee);
  return Math.max(...fees);
}
