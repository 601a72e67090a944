import type { ChargeRow, MerchantRow, PaymentRequestRow } from "../../db/schema";
import { type DbOrTx } from "../../db/types";
import { businessName, merchantLocale, receiptContact } from "../../merchants/facts";
import { receiptEmail } from "../../notifications/payment-templates";
import { queueEmail } from "../../notifications/send-email";
import type { MerchantDefaults } from "../../schemas/account";

/** The paid request's receipt e-mail (docs/reference.md section 10), in the payer's language. */
export async function sendReceipt(
  tx: DbOrTx,
  request: PaymentRequestRow,
  charge: ChargeRow,
  merchant: MerchantRow,
  brand: MerchantDefaults,
  to: string,
  payerLocale?: "en" | "es",
) {
  // The payer's language (the page it paid on), else the merchant's.
  const locale = payerLocale ?? merchantLocale(merchant);
  const message = receiptEmail({
    brand,
    locale,
    business: businessName(merchant) || brand.display_name,
    total: charge.amountCaptured,
    brandName: charge.paymentMethod === "ach" ? "ach" : charge.cardBrand,
    last4: charge.paymentMethod === "ach" ? (charge.ach?.last4 ?? null) : charge.cardLast4,
    paidAt: charge.createdAt,
    receiptNumber: charge.receiptNumber,
    bank: charge.paymentMethod === "ach",
    amounts: {
      subtotal: request.amount,
      tax: request.tax,
      tip: request.tip,
      items: request.items as { name: string; quantity: number; unit_price: number }[] | null,
    },
    contact: receiptContact(merchant),
  });
  await queueEmail(tx, {
    accountId: request.isvAccountId,
    merchantId: request.merchantId,
    kind: "charge.receipt",
    to,
    locale,
    ...message,
  });
}
