import type { AccountRow, BillingAddress, MerchantRow, PaymentRequestRow } from "../../db/schema";
import { requestTotal } from "../../payments/total";
import { paymentProcessor } from "../../processors";
import type { CardEntryMethod } from "../../schemas/payment-values";
import { chargeCosts } from "../fees/compute-cost";
import { feeForAchCharge, feeForCardCharge } from "../fees/merchant-pricing";
import type { PaymentSource } from "./payment-source";

/**
 * What an authorized payment is worth to each party, fixed at authorization: the merchant's fee by its
 * pricing with the lines that explain it (docs/reference.md section 13), what it cost and what the ISV
 * made on it (section 19, the ISV's eyes only), the ISV's platform fee, the net; and how the card is
 * shown. A declined payment has none of the money (all null), only the card.
 */
export function chargeTerms({
  merchant,
  isv,
  request,
  source,
  approved,
  entryMethod,
  billingAddress,
}: {
  merchant: MerchantRow;
  isv: AccountRow;
  request: PaymentRequestRow;
  source: PaymentSource;
  approved: boolean;
  entryMethod: CardEntryMethod;
  billingAddress: BillingAddress | null;
}) {
  const total = requestTotal(request);
  const priced = !approved
    ? null
    : source.kind === "bank_account"
      ? feeForAchCharge(merchant, total)
      : feeForCardCharge(merchant, {
          amount: total,
          brand: source.brand,
          funding: source.funding,
          entryMethod,
          keyedWithPostalCode: Boolean(billingAddress?.postal_code),
        });
  const costed = !approved
    ? null
    : source.kind === "bank_account"
      ? chargeCosts(isv.costProfile, { method: "ach", amount: total, fee: priced?.fee ?? null })
      : chargeCosts(isv.costProfile, {
          method: "card",
          amount: total,
          fee: priced?.fee ?? null,
          brand: source.brand,
          funding: source.funding,
          entryMethod,
          interchange: (card) => paymentProcessor().interchange(card),
        });
  // The platform fee chosen when the request was made; it never eats into the processing fee (the
  // request was refused if it could: this bounds a pricing changed since).
  const platformFee =
    approved && request.platformFee
      ? Math.min(request.platformFee, Math.max(0, total - (priced?.fee ?? 0))) || null
      : null;
  const card =
    source.kind === "bank_account"
      ? {
          cardBrand: null,
          cardLast4: null,
          cardExpirationDate: null,
          cardType: null,
          cardFingerprint: source.fingerprint,
        }
      : {
          cardBrand: source.brand,
          cardLast4: source.last4,
          cardExpirationDate: `${String(source.expMonth).padStart(2, "0")}/${source.expYear}`,
          cardType: source.funding,
          cardFingerprint: source.fingerprint,
        };
  return {
    ...card,
    fee: priced?.fee ?? null,
    platformFee,
    feeDetails: priced?.lines ?? null,
    costs: costed?.costs ?? null,
    costDetails: costed?.costDetails ?? null,
    margin: costed?.margin ?? null,
  };
}
