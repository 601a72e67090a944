import type { AccountRow, MerchantRow } from "../../db/schema";
import { invalid } from "../../errors";
import type { PaymentType } from "../../schemas/payment-values";
import { type PlatformFeeInput } from "../../schemas/platform-fees";
import { platformFeeSettingsOf } from "../accounts/isv-facts";
import { highestFee } from "../fees/merchant-pricing";
import { cardPresentFor, choosePlatformFee } from "../fees/platform-fee";
import { type Scope } from "../scope";

/**
 * The payment's platform fee (docs/reference.md section 19): the one the ISV gave, else its first
 * matching rule; at most what the total bears once the highest processing fee any way of paying it
 * could cost is taken (400 naming the field, nothing made). A merchant's own key cannot give one.
 */
export function platformFeeOf(
  scope: Scope,
  merchant: MerchantRow,
  input: { type: PaymentType; platform_fee?: PlatformFeeInput },
  isv: AccountRow,
  payment: { total: number },
): number | null {
  if (input.platform_fee && scope.merchantId)
    throw invalid(
      "platform_fee",
      "platform_fee is the ISV's to set: a merchant's own key cannot give one",
      "parameter_not_allowed",
    );
  const chosen = choosePlatformFee(input.platform_fee, platformFeeSettingsOf(isv).rules, {
    paymentType: input.type,
    total: payment.total,
    merchantId: merchant.id,
  });
  if (!chosen) return null;
  const fee = highestFee(merchant, {
    amount: payment.total,
    present: cardPresentFor(input.type),
    achPossible: input.type !== "TERMINAL",
  });
  const bearable = Math.max(0, payment.total - fee);
  if (chosen.amount > bearable) {
    const from =
      chosen.source.kind === "payment"
        ? "platform_fee"
        : `settings.platform_fee_rules[${chosen.source.index}] of the account`;
    throw invalid(
      "platform_fee",
      `The platform fee (${chosen.amount} cents, from ${from}) is more than this payment can bear: its total of ${payment.total} cents less a processing fee of up to ${fee} cents leaves ${bearable}`,
      "platform_fee_too_large",
    );
  }
  return chosen.amount;
}
